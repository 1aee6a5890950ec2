/*-------------------------------------------------------------------------
 *
 * index_scan.h
 *	  ColstoreIndexScan: an index scan of a colstore table that fetches
 *	  only the columns its plan reads (index_scan_path.c plans it,
 *	  index_scan_exec.c runs it).
 *
 * IDENTIFICATION
 *	  src/cscan/index_scan.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef INDEX_SCAN_H
#define INDEX_SCAN_H

#include "nodes/extensible.h"
#include "nodes/pg_list.h"
#include "nodes/value.h"

/*
 * The plan's custom_exprs hold two lists: the index quals, with the index
 * column on the left as Vars of INDEX_VAR (IndexScan.indexqual), and the
 * same quals in terms of the table's columns, for rechecks
 * (IndexScan.indexqualorig).  custom_private holds the index's OID and the
 * scan direction (IndexScan.indexorderdir) as Integers.
 */
#define ColstoreIndexScanIndexQual(cscan)		((List *) linitial((cscan)->custom_exprs))
#define ColstoreIndexScanIndexQualOrig(cscan)	((List *) lsecond((cscan)->custom_exprs))
#define ColstoreIndexScanIndexOid(cscan)		((Oid) intVal(linitial((cscan)->custom_private)))
#define ColstoreIndexScanDirection(cscan)		((ScanDirection) intVal(lsecond((cscan)->custom_private)))

/* colstore.enable_custom_index_scan */
extern bool colstore_enable_custom_index_scan;

extern const CustomScanMethods *ColstoreIndexScanPlanMethods(void);
extern void ColstoreIndexScanExecInit(void);
extern void ColstoreIndexScanPathInit(void);
extern void ColstoreIndexScanPathDefineSettings(void);

#endif							/* INDEX_SCAN_H */
