/*-------------------------------------------------------------------------
 *
 * pg_compat.h
 *	  The one place where colstore's code differs by PostgreSQL major
 *	  version (15, 17, 18).
 *
 * The code is written against the newest interfaces; for older servers this
 * header maps those names onto what the server has.  Where a version changed
 * what a callback must do, not only its spelling (ANALYZE's read stream in
 * 17, bitmap scans in 18), the callback itself has an #if with both bodies,
 * and this header only names the version tests.  Nothing else in the tree
 * tests PG_VERSION_NUM.
 *
 * IDENTIFICATION
 *	  src/pg_compat.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef COLSTORE_PG_COMPAT_H
#define COLSTORE_PG_COMPAT_H

#if PG_VERSION_NUM < 150000 || PG_VERSION_NUM >= 190000
#error "colstore supports PostgreSQL 15, 17 and 18"
#endif

/* Version tests, named for what changed. */
#define PG_HAS_RELFILELOCATOR		(PG_VERSION_NUM >= 160000)
#define PG_HAS_TU_UPDATE_INDEXES	(PG_VERSION_NUM >= 160000)
#define PG_HAS_VACUUM_CUTOFFS		(PG_VERSION_NUM >= 160000)
#define PG_VACUUM_INFO_HAS_HEAPREL	(PG_VERSION_NUM >= 160000)
#define PG_ANALYZE_READS_STREAM		(PG_VERSION_NUM >= 170000)
#define PG_HAS_READ_STREAM			(PG_VERSION_NUM >= 170000)
#define PG_SLOT_TELLS_CURRENT_XACT	(PG_VERSION_NUM >= 170000)
#define PG_BITMAP_SCAN_IN_AM		(PG_VERSION_NUM >= 180000)
#define PG_MINIMAL_TUPLE_HAS_EXTRA	(PG_VERSION_NUM >= 180000)
#define PG_EC_CHILD_MEMBERS_APART	(PG_VERSION_NUM >= 180000)

#include "access/htup.h"

#if PG_VERSION_NUM >= 160000
#include "varatt.h"
#include "catalog/pg_class.h"
#include "storage/relfilelocator.h"
#else
#include "storage/relfilenode.h"

/* 16 renamed relfilenodes to relfilelocators; the layout is the same. */
typedef RelFileNode RelFileLocator;
#define RelFileLocatorEquals(a, b)	RelFileNodeEquals(a, b)
#define rd_locator					rd_node
#define relation_set_new_filelocator relation_set_new_filenode
#endif

/* 18 replaced the postfix pg_attribute_noreturn() by the prefix pg_noreturn. */
#ifndef pg_noreturn
#define pg_noreturn pg_attribute_noreturn()
#endif

/* A relfilelocator's three numbers, by whichever name the server gives them. */
#if PG_VERSION_NUM >= 160000
#define LocatorSpcOid(l)	((l).spcOid)
#define LocatorDbOid(l)		((l).dbOid)
#define LocatorNumber(l)	((l).relNumber)
#else
#define LocatorSpcOid(l)	((l).spcNode)
#define LocatorDbOid(l)		((l).dbNode)
#define LocatorNumber(l)	((l).relNode)
#endif

/*
 * 16 replaced tuple_update's "bool *update_indexes" by TU_UpdateIndexes; on
 * 15 the two answers colstore gives are false and true.
 */
#if PG_VERSION_NUM < 160000
typedef bool TU_UpdateIndexes;
#define TU_None		false
#define TU_All		true
#endif

/* 16 added ExecInsertIndexTuples' onlySummarizing argument. */
#if PG_VERSION_NUM >= 160000
#define ExecInsertIndexTuplesCompat(rri, slot, estate, update, noDupErr, specConflict, arbiters) \
	ExecInsertIndexTuples(rri, slot, estate, update, noDupErr, specConflict, arbiters, false)
#else
#define ExecInsertIndexTuplesCompat(rri, slot, estate, update, noDupErr, specConflict, arbiters) \
	ExecInsertIndexTuples(rri, slot, estate, update, noDupErr, specConflict, arbiters)
#endif

/*
 * 16 added isCatalogRel to the recovery conflict functions (for logical
 * slots on standbys); colstore tables are never catalog tables.
 */
#if PG_VERSION_NUM >= 160000
#define ResolveSnapshotConflict(xid, locator) \
	ResolveRecoveryConflictWithSnapshot(xid, false, locator)
#else
#define ResolveSnapshotConflict(xid, locator) \
	ResolveRecoveryConflictWithSnapshot(xid, locator)
#endif

/* 16 dropped build_expression_pathkey's nullable_relids. */
#if PG_VERSION_NUM >= 160000
#define BuildExpressionPathkey(root, expr, opno, rel, create_it) \
	build_expression_pathkey(root, expr, opno, rel, create_it)
#else
#define BuildExpressionPathkey(root, expr, opno, rel, create_it) \
	build_expression_pathkey(root, expr, NULL, opno, rel, create_it)
#endif

/* 16 added tuplesort_getdatum's copy flag (before, by-reference values were copied). */
#if PG_VERSION_NUM >= 160000
#define TuplesortGetDatum(state, forward, val, isnull, abbrev) \
	tuplesort_getdatum(state, forward, true, val, isnull, abbrev)
#else
#define TuplesortGetDatum(state, forward, val, isnull, abbrev) \
	tuplesort_getdatum(state, forward, val, isnull, abbrev)
#endif

/* 16 renamed a table's pending statistics counters. */
#if PG_VERSION_NUM >= 160000
#define PgStatTuplesReturned(info)	((info)->counts.tuples_returned)
#else
#define PgStatTuplesReturned(info)	((info)->t_counts.t_tuples_returned)
#endif

/* 16 made VACUUM's main relation an option of its own (PROCESS_MAIN). */
#if PG_VERSION_NUM >= 160000
#define VACOPT_PROCESS_MAIN_IF_ANY	VACOPT_PROCESS_MAIN
#else
#define VACOPT_PROCESS_MAIN_IF_ANY	0
#endif

/* 16 added vacuum()'s memory context for what outlives its transactions. */
#if PG_VERSION_NUM >= 160000
#define VacuumRelations(rels, params, strategy, cxt) \
	vacuum(rels, params, strategy, cxt, true)
#else
#define VacuumRelations(rels, params, strategy, cxt) \
	vacuum(rels, params, strategy, true)
#endif

/* 17 moved a backend's local transaction id into its virtual xid. */
#if PG_VERSION_NUM >= 170000
#define MyLocalTransactionId()	(MyProc->vxid.lxid)
#else
#define MyLocalTransactionId()	(MyProc->lxid)
#endif

/*
 * Logical decoding: 16 renamed a change's relfilenode, 17 made its tuples
 * plain HeapTuples (no ReorderBufferTupleBuf), 18 renamed the allocators.
 */
#if PG_VERSION_NUM >= 160000
#define ChangeRelLocator(change)	((change)->data.tp.rlocator)
#else
#define ChangeRelLocator(change)	((change)->data.tp.relnode)
#endif
#if PG_VERSION_NUM >= 170000
typedef HeapTuple ChangeTuple;
#define ChangeTupleData(ct)			(ct)
#else
typedef struct ReorderBufferTupleBuf *ChangeTuple;
#define ChangeTupleData(ct)			(&(ct)->tuple)
#endif
#if PG_VERSION_NUM < 180000
#define ReorderBufferAllocTupleBuf(rb, len)	ReorderBufferGetTupleBuf(rb, len)
#define ReorderBufferAllocChange(rb)		ReorderBufferGetChange(rb)
#endif

/* 16 generalised ownership checks; 16 renamed the conflict horizon. */
#if PG_VERSION_NUM >= 160000
#define RelationOwnedBy(relid, roleid) \
	object_ownercheck(RelationRelationId, relid, roleid)
#define HeapTupleHeaderAdvanceHorizon(tuple, xid) \
	HeapTupleHeaderAdvanceConflictHorizon(tuple, xid)
#else
#define RelationOwnedBy(relid, roleid)	pg_class_ownercheck(relid, roleid)
#define HeapTupleHeaderAdvanceHorizon(tuple, xid) \
	HeapTupleHeaderAdvanceLatestRemovedXid(tuple, xid)
#endif

/*
 * May role maintain (VACUUM, CLUSTER, ...) relation relid?  Its owner may;
 * from 17 so may a role with the MAINTAIN privilege on it.
 */
#if PG_VERSION_NUM >= 170000
#define MayMaintainRelation(relid, roleid) \
	(RelationOwnedBy(relid, roleid) || \
	 pg_class_aclcheck(relid, roleid, ACL_MAINTAIN) == ACLCHECK_OK)
#else
#define MayMaintainRelation(relid, roleid)	RelationOwnedBy(relid, roleid)
#endif

/* 18 tells a merge clause's direction by a flag, not a strategy number. */
#if PG_VERSION_NUM >= 180000
#define MergeClauseDescending(mj, i)	((mj)->mergeReversals[i])
#else
#define MergeClauseDescending(mj, i)	((mj)->mergeStrategies[i] == BTGreaterStrategyNumber)
#endif

/* 18 dropped ExecutorRun's execute_once argument. */
#if PG_VERSION_NUM >= 180000
#define EXECUTOR_RUN_PARAMS		QueryDesc *queryDesc, ScanDirection direction, uint64 count
#define EXECUTOR_RUN_ARGS		queryDesc, direction, count
#else
#define EXECUTOR_RUN_PARAMS \
	QueryDesc *queryDesc, ScanDirection direction, uint64 count, bool execute_once
#define EXECUTOR_RUN_ARGS		queryDesc, direction, count, execute_once
#endif

/* This backend's PGPROC number: 17 made it a global of its own. */
#if PG_VERSION_NUM >= 170000
#define ColstoreMyProcNumber()	MyProcNumber
#else
#define ColstoreMyProcNumber()	(MyProc->pgprocno)
#endif

/* 17 renamed the process-kind tests. */
#if PG_VERSION_NUM >= 170000
#define InAutoVacuumWorker()	AmAutoVacuumWorkerProcess()
#else
#define InAutoVacuumWorker()	IsAutoVacuumWorkerProcess()
#endif

/*
 * 18 changes: index scans take instrumentation, conditional lock waits
 * take log_lock_failures, relstats count all-frozen pages, vacuum
 * statistics take the start time, merge joins know presorted outer keys,
 * parallel scans name the relation by locator, and "which btree families
 * hold this operator" asks about index AMs in general.
 */
#if PG_VERSION_NUM >= 180000
#define IndexBeginScan(heap, index, snapshot, nkeys, norderbys) \
	index_beginscan(heap, index, snapshot, NULL, nkeys, norderbys)
#define ConditionalXactLockWait(xid) \
	ConditionalXactLockTableWait(xid, log_lock_failures)
#define VacUpdateRelstats(rel, pages, tuples, allvisible, hasindex, frozenxid, minmulti, fx_upd, mm_upd) \
	vac_update_relstats(rel, pages, tuples, allvisible, 0, hasindex, frozenxid, minmulti, fx_upd, mm_upd, false)
#define PgstatReportVacuum(rel, live, dead, starttime) \
	pgstat_report_vacuum(RelationGetRelid(rel), (rel)->rd_rel->relisshared, live, dead, starttime)
#define InitialCostMergejoin(root, ws, jointype, clauses, outer, inner, outersort, innersort, extra) \
	initial_cost_mergejoin(root, ws, jointype, clauses, outer, inner, outersort, innersort, 0, extra)
#define CreateMergejoinPath(root, joinrel, jointype, ws, extra, outer, inner, restrict, pathkeys, req, clauses, outersort, innersort) \
	create_mergejoin_path(root, joinrel, jointype, ws, extra, outer, inner, restrict, pathkeys, req, clauses, outersort, innersort, 0)
#define ParallelScanSetRelation(pscan, rel)	((pscan)->phs_locator = (rel)->rd_locator)
#define OperatorIsBtreeComparison(opno)	(get_op_index_interpretation(opno) != NIL)
#else
#define IndexBeginScan(heap, index, snapshot, nkeys, norderbys) \
	index_beginscan(heap, index, snapshot, nkeys, norderbys)
#define ConditionalXactLockWait(xid)	ConditionalXactLockTableWait(xid)
#define VacUpdateRelstats(rel, pages, tuples, allvisible, hasindex, frozenxid, minmulti, fx_upd, mm_upd) \
	vac_update_relstats(rel, pages, tuples, allvisible, hasindex, frozenxid, minmulti, fx_upd, mm_upd, false)
#define PgstatReportVacuum(rel, live, dead, starttime) \
	((void) (starttime), \
	 pgstat_report_vacuum(RelationGetRelid(rel), (rel)->rd_rel->relisshared, live, dead))
#define InitialCostMergejoin(root, ws, jointype, clauses, outer, inner, outersort, innersort, extra) \
	initial_cost_mergejoin(root, ws, jointype, clauses, outer, inner, outersort, innersort, extra)
#define CreateMergejoinPath(root, joinrel, jointype, ws, extra, outer, inner, restrict, pathkeys, req, clauses, outersort, innersort) \
	create_mergejoin_path(root, joinrel, jointype, ws, extra, outer, inner, restrict, pathkeys, req, clauses, outersort, innersort)
#define ParallelScanSetRelation(pscan, rel)	((pscan)->phs_relid = RelationGetRelid(rel))
#define OperatorIsBtreeComparison(opno)	(get_op_btree_interpretation(opno) != NIL)
#endif

/*
 * Does collation coll sort as "C" (byte order)?  18 dropped
 * lc_collate_is_c for the locale's own flag.
 */
#if PG_VERSION_NUM >= 180000
#include "utils/pg_locale.h"
static inline bool
CollationIsC(Oid coll)
{
	return OidIsValid(coll) && pg_newlocale_from_collation(coll)->collate_is_c;
}
#else
#define CollationIsC(coll)	lc_collate_is_c(coll)
#endif

/*
 * A path that reads the whole table under enable_seqscan = off: from 18 a
 * disabled node is counted (disabled_nodes, compared before costs), before
 * it costs disable_cost more.  Call after setting the startup cost.
 */
#if PG_VERSION_NUM >= 180000
#define DisableUnlessSeqScansEnabled(path) \
	((path)->disabled_nodes = enable_seqscan ? 0 : 1)
#else
#define DisableUnlessSeqScansEnabled(path) \
	((path)->startup_cost += enable_seqscan ? 0 : disable_cost)
#endif

/* A path over another counts the other's disabled nodes (18). */
#if PG_VERSION_NUM >= 180000
#define InheritDisabledNodes(path, child)	((path)->disabled_nodes = (child)->disabled_nodes)
#else
#define InheritDisabledNodes(path, child)	((void) 0)
#endif

/* 18 caches a copy of each attribute's layout, refreshed after changes. */
#if PG_VERSION_NUM >= 180000
#define PopulateCompactAttribute(desc, att)	populate_compact_attribute(desc, att)
#else
#define PopulateCompactAttribute(desc, att)	((void) 0)
#endif

/* 17 added LockHeldByMe's "or a stronger mode" argument. */
#if PG_VERSION_NUM >= 170000
#define LockHeldByMeInMode(tag, mode)	LockHeldByMe(tag, mode, false)
#else
#define LockHeldByMeInMode(tag, mode)	LockHeldByMe(tag, mode)
#endif

/* 18 tells vacuum_delay_point whether ANALYZE or VACUUM is waiting. */
#if PG_VERSION_NUM >= 180000
#define VacuumDelayPoint()	vacuum_delay_point(false)
#else
#define VacuumDelayPoint()	vacuum_delay_point()
#endif

/* 18 moved EXPLAIN's output functions out of commands/explain.h. */
#if PG_VERSION_NUM >= 180000
#include "commands/explain_format.h"
#include "commands/explain_state.h"
#endif

/*
 * 16 marks each Var with the outer joins that can null it (varnullingrels);
 * a query rewrite that moves a column below or above an outer join says so.
 */
#if PG_VERSION_NUM >= 160000
#define SetVarNulledBy(var, rti)	((var)->varnullingrels = bms_make_singleton(rti))
#define RemoveNulledBy(node, rti) \
	remove_nulling_relids((node), bms_make_singleton(rti), NULL)
#else
#define SetVarNulledBy(var, rti)	((void) 0)
#define RemoveNulledBy(node, rti)	(node)
#endif

/* 16 keeps a query's relation permissions apart from its range table. */
#define PG_HAS_RTEPERMINFOS			(PG_VERSION_NUM >= 160000)

/*
 * 18 represents the grouped expressions of a query's target list and
 * HAVING as Vars of an RTE_GROUP entry (hasGroupRTE); a rewrite that
 * removes the grouping puts the expressions back and the entry away.
 */
#define PG_HAS_GROUP_RTE			(PG_VERSION_NUM >= 180000)
#if PG_VERSION_NUM >= 180000
#define FlattenGroupVars(query, node)	flatten_group_exprs(NULL, (query), (node))
#else
#define FlattenGroupVars(query, node)	(node)
#endif

/*
 * 16 added right anti joins and 18 right semi joins: hash joins that return
 * rows of the hash side only, each asking whether some outer row matches it.
 */
#if PG_VERSION_NUM >= 180000
#define JoinTypeIsRightSemiOrAnti(jt) ((jt) == JOIN_RIGHT_ANTI || (jt) == JOIN_RIGHT_SEMI)
#elif PG_VERSION_NUM >= 160000
#define JoinTypeIsRightSemiOrAnti(jt) ((jt) == JOIN_RIGHT_ANTI)
#else
#define JoinTypeIsRightSemiOrAnti(jt) ((void) (jt), false)
#endif

#endif							/* COLSTORE_PG_COMPAT_H */
