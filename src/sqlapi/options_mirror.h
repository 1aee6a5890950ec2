/*-------------------------------------------------------------------------
 *
 * options_mirror.h
 *	  The copy of colstore tables' options in pg_class.reloptions (see
 *	  options_mirror.c).
 *
 * IDENTIFICATION
 *	  src/sqlapi/options_mirror.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef OPTIONS_MIRROR_H
#define OPTIONS_MIRROR_H

#include "nodes/nodes.h"

extern void OptionsMirrorWrite(Oid relid);
extern Oid	OptionsMirrorHide(Node *stmt);

#endif							/* OPTIONS_MIRROR_H */
