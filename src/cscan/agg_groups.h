/*-------------------------------------------------------------------------
 *
 * agg_groups.h
 *	  The groups of ColstoreAgg's GROUP BY: a hash table from grouping key
 *	  values to group numbers, filled batch by batch.
 *
 * IDENTIFICATION
 *	  src/cscan/agg_groups.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef AGG_GROUPS_H
#define AGG_GROUPS_H

#include "postgres.h"

#include "fmgr.h"

/* One grouping column. */
typedef struct GroupKeySpec
{
	int			attno;			/* column, 0-based */
	bool		byval;			/* pass-by-value (else a varlena) */
	bool		blank_padded;	/* bpchar: trailing blanks do not count */
	/* else than by datum or bytes: by the grouping operator's functions */
	bool		by_function;
	FmgrInfo	hash_fn;		/* the operator's hash function */
	FmgrInfo	eq_fn;			/* the operator's function */
	Oid			collation;
} GroupKeySpec;

typedef struct GroupTable GroupTable;

extern GroupTable *GroupTableCreate(int nkeys, const GroupKeySpec *keys);
extern void GroupTableAssign(GroupTable *table, int nrows, Datum **values,
							 bool **isnull, const bool *selected,
							 uint32 *groups);
extern uint32 GroupTableSize(const GroupTable *table);
extern int	GroupTableNumKeys(const GroupTable *table);
extern bool GroupTableKeyByVal(const GroupTable *table, int key);
extern Datum GroupTableKey(const GroupTable *table, uint32 group, int key,
						   bool *isnull);

#endif							/* AGG_GROUPS_H */
