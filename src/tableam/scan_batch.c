/*-------------------------------------------------------------------------
 *
 * scan_batch.c
 *	  Batch access to a scan: a forward walk read a chunk at a time.
 *
 * ColstoreAgg and the other batch readers of cscan/ take the scan's next
 * chunk whole (ColstoreScanNextBatch) and read its columns as arrays of
 * decoded values, or, for numeric columns stored as scaled integers, as
 * int64s without building numerics.  The walk's chunk filter (scan_walk.c)
 * applies to the chunks, its row filter does not; the rows the snapshot
 * hides are the caller's to skip (ColstoreScanBatchSelect).
 *
 * IDENTIFICATION
 *	  src/tableam/scan_batch.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/relscan.h"
#include "pgstat.h"
#include "utils/rel.h"

#include "mvcc/row_state.h"
#include "storage/rowgroup_reader.h"
#include "tableam/scan_engine.h"
#include "tableam/scan_engine_internal.h"

/*
 * ColstoreScanNextBatch
 *		Batch access for a forward serial or parallel scan: move to the next
 *		chunk (of the next visible row group, if needed) that the filter
 *		does not rule out, and return its row count, or -1 at the end.  The
 *		chunk's columns, typed by desc, are then read with
 *		ColstoreScanBatchColumn and ColstoreScanBatchNulls; their data stays
 *		valid until the next call.  The chunk's rows count as consumed, so
 *		a scan is read either by batches or by rows, not both.
 */
int
ColstoreScanNextBatch(TableScanDesc scan, TupleDesc desc)
{
	ColstoreScanDesc s = (ColstoreScanDesc) scan;

	Relation	rel = scan->rs_rd;

	if (!ScanAdvanceChunk(s, desc))
		return -1;
	s->chunk_pos = s->chunk_rows;
	/* seq_tup_read, as row-by-row scans count it */
	if (pgstat_should_count_relation(rel))
		PgStatTuplesReturned(rel->pgstat_info) += s->chunk_rows;
	return s->chunk_rows;
}

/* Decoded values and NULL flags of column att (0-based) of the batch. */
void
ColstoreScanBatchColumn(TableScanDesc scan, int att, Datum **values, bool **isnull)
{
	ColstoreScanDesc s = (ColstoreScanDesc) scan;

	Assert(s->cur_chunk >= 0 && att < s->chunk_desc->natts);
	ScanDecodeColumn(s, att);
	*values = s->values[att];
	*isnull = s->isnull[att];
}

/*
 * ColstoreScanBatchScaled
 *		For a numeric column att (0-based) stored in the batch's chunk in the
 *		scaled-integer encoding: its values as int64s times 10^*scale, their
 *		display scales and NULL flags, without building numerics; returns
 *		false (read ColstoreScanBatchColumn then) for other encodings, delta
 *		pages and columns the chunk does not store.  The arrays are read once
 *		per batch, shared by all callers (read only) and valid until the
 *		next batch.
 */
bool
ColstoreScanBatchScaled(TableScanDesc scan, int att, int64 **values,
						int64 **dscales, bool **isnull, int *scale)
{
	ColstoreScaledValues v;

	if (!ColstoreScanBatchScaledRows(scan, att, NULL, 0, 0, &v))
		return false;
	*values = v.values;
	*dscales = v.dscales;
	*isnull = v.isnull;
	*scale = v.scale;
	return true;
}

/*
 * ColstoreScanBatchScaledRows
 *		ColstoreScanBatchScaled for the rows of a row list: only the entries
 *		of rows[0 .. nrows - 1] (ascending or not) are sure to be set (all
 *		of them if rows is NULL).  nwanted is about how many rows of the
 *		batch the caller reads in all, at most: when they are few, only
 *		they are read from the chunk (after it was validated whole), not
 *		the whole chunk decoded.  out->nonull tells that no row of the
 *		batch is NULL.
 */
bool
ColstoreScanBatchScaledRows(TableScanDesc scan, int att, const int *rows,
							int nrows, int nwanted, ColstoreScaledValues *out)
{
	ColstoreScanDesc s = (ColstoreScanDesc) scan;
	const ScaledColumn *col;

	Assert(s->cur_chunk >= 0 && att < s->chunk_desc->natts);
	col = ScanReadScaled(s, att, rows, nrows, nwanted);
	if (col == NULL)
		return false;
	out->values = col->values;
	out->dscales = col->dscales;
	out->isnull = col->isnull;
	out->scale = col->scale;
	out->nonull = col->nonull;
	return true;
}

/*
 * ColstoreScanBatchNoNulls
 *		Is no row of column att of the batch NULL?  Decodes the column, as
 *		ColstoreScanBatchColumn does, and looks at its NULL flags.
 */
bool
ColstoreScanBatchNoNulls(TableScanDesc scan, int att)
{
	ColstoreScanDesc s = (ColstoreScanDesc) scan;

	Assert(s->cur_chunk >= 0 && att < s->chunk_desc->natts);
	ScanDecodeColumn(s, att);
	return memchr(s->isnull[att], true, s->chunk_rows) == NULL;
}

/*
 * NULLs of column att in the batch, from the row group header without
 * decoding, or -1 if the header does not know (the column was added after
 * the row group was written: its rows read as the column's missing value;
 * or the batch is a delta page, or has rows the scan does not return).
 */
int
ColstoreScanBatchNulls(TableScanDesc scan, int att)
{
	ColstoreScanDesc s = (ColstoreScanDesc) scan;

	Assert(s->cur_chunk >= 0);
	if (s->header == NULL || s->row_mask != NULL || att >= s->header->natts)
		return -1;
	return (int) RowGroupChunk(s->header, att, s->cur_chunk)->cd_nnulls;
}

/*
 * ColstoreScanBatchSelect
 *		If the scan does not return every row of the batch (deleted rows),
 *		set selected[i] to whether it returns row i and return true; else
 *		return false and leave selected alone.
 */
bool
ColstoreScanBatchSelect(TableScanDesc scan, bool *selected)
{
	ColstoreScanDesc s = (ColstoreScanDesc) scan;
	int			i;

	if (s->row_mask == NULL)
		return false;
	for (i = 0; i < s->chunk_rows; i++)
		selected[i] = !RowHidden(s, i);
	return true;
}
