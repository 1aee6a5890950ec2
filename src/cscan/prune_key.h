/*-------------------------------------------------------------------------
 *
 * prune_key.h
 *	  The pruning keys that chunk_pruning.c builds from conditions and
 *	  chunk_filter.c decides rows with.  Internal to those two files; the
 *	  interface is chunk_pruning.h.
 *
 * IDENTIFICATION
 *	  src/cscan/prune_key.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef PRUNE_KEY_H
#define PRUNE_KEY_H

#include "access/stratnum.h"
#include "access/tupdesc.h"
#include "executor/execExpr.h"
#include "fmgr.h"

#include "cscan/integer_division.h"
#include "cscan/like_match.h"

/*
 * The strategy of "<>", which no btree operator family has: a row passes
 * when the comparison function says its value differs.
 */
#define NOT_EQUAL_STRATEGY	(BTMaxStrategyNumber + 1)

/* What a key tests. */
typedef enum PruneKeyKind
{
	PRUNE_COMPARE,				/* column <strategy> value */
	PRUNE_IN,					/* column = ANY (array value) */
	PRUNE_IS_NULL,
	PRUNE_IS_NOT_NULL,
	PRUNE_LIKE,					/* text column LIKE pattern value */
	PRUNE_COLUMNS,				/* column <strategy> column2 (filters only) */
	PRUNE_DIVISION,				/* integer column % or / divisor <strategy>
								 * value (filters only) */
	PRUNE_AND,					/* every one of subkeys */
	PRUNE_OR					/* any one of subkeys */
} PruneKeyKind;


typedef struct PruneKey
{
	int			attno;			/* 0-based attribute */
	int			attno2;			/* PRUNE_COLUMNS: the right-hand column */
	PruneKeyKind kind;
	int			strategy;		/* BT*StrategyNumber, for PRUNE_COMPARE */
	FmgrInfo	cmp;			/* BTORDER_PROC(column type, value type) */
	Oid			collation;		/* the clause's, for cmp (InvalidOid if none) */
	bool		strict;			/* NULL value: no row passes */

	/*
	 * text, varchar or bpchar "=", "<>" and IN under a deterministic
	 * collation: bytes (bpchar's trailing spaces not counted, as bpchareq)
	 */
	bool		bytes_equal;
	bool		bytes_padded;	/* ... bpchar: trailing spaces trimmed */
	/* PRUNE_DIVISION: what is computed from the column before comparing */
	IntegerDivision division;
	/* PRUNE_LIKE: LIKE's function, NOT LIKE or not, the compiled pattern */
	FmgrInfo	like;
	bool		like_negated;
	bool		prefix_orders;	/* the prefix can prune: stats in byte order
								 * ("C") */
	LikePattern like_pattern;
	ExprState  *value_expr;
	int16		value_typlen;
	bool		value_typbyval;
	/* both sides int2/int4/int8 (or both date): compare as int64 */
	Oid			int_column_type;	/* InvalidOid: use cmp */
	Oid			int_value_type;
	int64		int_value;
	bool		int_ok;			/* int_value holds the evaluated value */
	bool		date_bound;		/* date column, timestamp value: int_value is
								 * DateBoundOfTimestamp's bound */
	/* both sides numeric: compare scaled-integer chunks as int128s */
	bool		numeric_key;
	bool		scaled_ok;		/* the value fits: */
	int128		scaled_value;	/* value * 10^scaled_scale */
	int			scaled_scale;
	Datum		value;			/* evaluated by ChunkPrunerEvaluate */
	bool		value_isnull;
	/* PRUNE_IN: the array's element type and its non-NULL elements */
	Oid			elem_type;
	int			nelems;
	Datum	   *elems;
	int64	   *int_elems;		/* as int64s, if int_column_type is set */
	/* PRUNE_AND, PRUNE_OR: the arguments, and PRUNE_OR's scratch rows */
	int			nsubkeys;
	struct PruneKey *subkeys;
	int		   *arm_rows;		/* an argument's row list */
	bool	   *any_rows;		/* by row: some argument passed it */
	int			rows_capacity;
	/* rows the filter gave the key and rows it kept (top-level keys) */
	uint64		rows_in;
	uint64		rows_out;
} PruneKey;

struct ChunkPruner
{
	TupleDesc	desc;
	int			nkeys;
	PruneKey   *keys;
	MemoryContext cxt;			/* the keys and their scratch rows */
	MemoryContext value_cxt;	/* evaluated values */
	MemoryContext tmp_cxt;		/* min/max of the chunk being tested */
	/* the batch filter (chunk_filter.c), in cxt */
	int		   *order;			/* [nkeys]: the order keys filter in */
	double	   *group_rate;		/* [nkeys]: OrderKeys' scratch */
	int		   *rows;			/* the row list */
	int			rows_capacity;
	int64	   *quotients;		/* [rows_capacity], made when first needed:
								 * PRUNE_DIVISION's results */
};

#endif							/* PRUNE_KEY_H */
