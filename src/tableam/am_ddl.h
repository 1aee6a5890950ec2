/*-------------------------------------------------------------------------
 *
 * am_ddl.h
 *	  Table AM callbacks of colstore for storage management: creation,
 *	  truncation, copying, rewriting, and size.
 *
 * IDENTIFICATION
 *	  src/tableam/am_ddl.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef AM_DDL_H
#define AM_DDL_H

#include "access/tableam.h"
#include "pg_compat.h"

extern void colstore_relation_set_new_filelocator(Relation rel,
												  const RelFileLocator *newrlocator,
												  char persistence,
												  TransactionId *freezeXid,
												  MultiXactId *minmulti);
extern void colstore_relation_nontransactional_truncate(Relation rel);
extern void colstore_relation_copy_data(Relation rel, const RelFileLocator *newrlocator);
extern void colstore_relation_copy_for_cluster(Relation OldTable,
											   Relation NewTable,
											   Relation OldIndex, bool use_sort,
											   TransactionId OldestXmin,
											   TransactionId *xid_cutoff,
											   MultiXactId *multi_cutoff,
											   double *num_tuples,
											   double *tups_vacuumed,
											   double *tups_recently_dead);
extern uint64 colstore_relation_size(Relation rel, ForkNumber forkNumber);
extern bool colstore_relation_needs_toast_table(Relation rel);
extern Oid	colstore_relation_toast_am(Relation rel);
extern void colstore_relation_fetch_toast_slice(Relation toastrel, Oid valueid,
												int32 attrsize,
												int32 sliceoffset,
												int32 slicelength,
												struct varlena *result);
extern void colstore_relation_estimate_size(Relation rel, int32 *attr_widths,
											BlockNumber *pages, double *tuples,
											double *allvisfrac);

#endif							/* AM_DDL_H */
