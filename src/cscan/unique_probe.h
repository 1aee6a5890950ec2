/*-------------------------------------------------------------------------
 *
 * unique_probe.h
 *	  Equality probes of a unique btree index answered from the row groups
 *	  (unique_probe.c), for ColstoreIndexScan.
 *
 * IDENTIFICATION
 *	  src/cscan/unique_probe.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef UNIQUE_PROBE_H
#define UNIQUE_PROBE_H

#include "access/skey.h"
#include "executor/tuptable.h"
#include "utils/rel.h"
#include "utils/snapshot.h"

typedef struct UniqueProbe UniqueProbe;

/* colstore.enable_unique_probe */
extern bool colstore_enable_unique_probe;

extern UniqueProbe *UniqueProbeBegin(Relation rel, Relation index, ScanKey keys,
									 int nkeys, Snapshot snapshot, int eflags);
extern bool UniqueProbeFetch(UniqueProbe *probe, ScanKey key, TupleTableSlot *slot,
							 const bool *needed, bool key_from_index);
extern uint64 UniqueProbeAnswered(const UniqueProbe *probe);
extern void UniqueProbeDefineSettings(void);

#endif							/* UNIQUE_PROBE_H */
