/*-------------------------------------------------------------------------
 *
 * relation_info.h
 *	  Planner facts about colstore tables (get_relation_info_hook).
 *
 * IDENTIFICATION
 *	  src/cscan/relation_info.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef RELATION_INFO_H
#define RELATION_INFO_H

extern void ColstoreRelationInfoDefineSettings(void);
extern void ColstoreRelationInfoInit(void);

#endif							/* RELATION_INFO_H */
