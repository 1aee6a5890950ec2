/*-------------------------------------------------------------------------
 *
 * key_range_join.h
 *	  The key-range join: a parallel inner join of two colstore tables,
 *	  split into ranges of a key column both hold in ascending order
 *	  (key_range_path.c plans it, key_range_exec.c runs it).
 *
 * IDENTIFICATION
 *	  src/cscan/key_range_join.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef KEY_RANGE_JOIN_H
#define KEY_RANGE_JOIN_H

#include "nodes/extensible.h"
#include "nodes/pg_list.h"
#include "nodes/value.h"

/*
 * The plan's custom_private: the PARAM_EXEC parameters that carry the low
 * and high bound of the range being joined (both inclusive), the key type,
 * the split points (int8 Consts, ascending: n split points make n + 1
 * ranges, the first starting at the type's least value, the last ending at
 * its greatest, each other one starting at a split point and ending just
 * before the next), and the key's name for EXPLAIN.
 */
typedef enum KeyRangePrivateIndex
{
	KEY_RANGE_LO_PARAM,
	KEY_RANGE_HI_PARAM,
	KEY_RANGE_TYPE,
	KEY_RANGE_SPLITS,
	KEY_RANGE_LABEL
} KeyRangePrivateIndex;

/* colstore.enable_key_range_join */
extern bool colstore_enable_key_range_join;

extern bool KeyRangeComparisons(Oid type, Oid *ge_opno, Oid *le_opno);
extern const CustomScanMethods *KeyRangeJoinPlanMethods(void);
extern bool IsKeyRangeJoinState(PlanState *ps);
extern void KeyRangeJoinExecInit(void);
extern void KeyRangeJoinPathInit(void);
extern void KeyRangeJoinPathDefineSettings(void);

#endif							/* KEY_RANGE_JOIN_H */
