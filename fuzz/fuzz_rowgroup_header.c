/*-------------------------------------------------------------------------
 *
 * fuzz_rowgroup_header.c
 *	  libFuzzer target: row group headers (RowGroupReadHeader) and the
 *	  chunk statistics in them (RowGroupChunkMinMax, RowGroupChunkStatsMatch).
 *
 * Input: byte 0 holds flags: 0x01 keeps the header's CRC as it is (else
 * the harness fixes it, so that mutations reach the checks behind it);
 * bits 0x0e pick the column the statistics are read as.  The rest is the
 * header as it is in the page stream (StreamRead is emulated to return
 * it).  The directory entry agrees with the header's counts unless flag
 * 0x10 is set.  A header that is accepted must keep chunk boundaries
 * ascending within the row count, and RowGroupFindChunk must find every
 * chunk's first row in that chunk.
 *
 * IDENTIFICATION
 *	  fuzz/fuzz_rowgroup_header.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_attribute.h"
#include "catalog/pg_type_d.h"
#include "port/pg_crc32c.h"

#include "storage/rowgroup_reader.h"

#include "fuzz_common.h"

static void
set_att(FormData_pg_attribute *att, int kind)
{
	static const struct
	{
		Oid			typid;
		int16		len;
		bool		byval;
	}			kinds[8] = {
		{INT4OID, 4, true}, {INT8OID, 8, true}, {TEXTOID, -1, false},
		{NUMERICOID, -1, false}, {UUIDOID, 16, false}, {NAMEOID, NAMEDATALEN, false},
		{INT2OID, 2, true}, {BYTEAOID, -1, false}
	};

	memset(att, 0, sizeof(*att));
	strcpy(NameStr(att->attname), "c");
	att->atttypid = kinds[kind].typid;
	att->attlen = kinds[kind].len;
	att->attbyval = kinds[kind].byval;
	att->attcollation = kinds[kind].typid == TEXTOID ? 100 : InvalidOid;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8		flags;

	if (size < 1 + sizeof(RowGroupHeaderData))
		return 0;
	flags = data[0];

	FUZZ_BEGIN("rowgroup_header");
	{
		Size		len = size - 1;
		char	   *raw = palloc(len);
		RowGroupHeaderData hd;
		RowGroupDirEntry entry;
		FormData_pg_attribute att;
		RowGroupHeader *h;
		uint32		c;

		memcpy(raw, data + 1, len);
		if (!(flags & 0x01))
		{
			pg_crc32c	crc;

			memset(raw + offsetof(RowGroupHeaderData, rh_crc), 0, sizeof(pg_crc32c));
			INIT_CRC32C(crc);
			COMP_CRC32C(crc, raw, len);
			FIN_CRC32C(crc);
			memcpy(raw + offsetof(RowGroupHeaderData, rh_crc), &crc, sizeof(crc));
		}
		memcpy(&hd, raw, sizeof(hd));
		memset(&entry, 0, sizeof(entry));
		entry.rg_kind = RG_KIND_ROWGROUP;
		entry.rg_header_len = len;
		entry.rg_nrows = hd.rh_nrows;
		entry.rg_natts = hd.rh_natts;
		entry.rg_nchunks = hd.rh_nchunks;
		if (flags & 0x10)
			entry.rg_nrows ^= 1;
		fuzz_stream = raw;
		fuzz_stream_len = len;
		set_att(&att, (flags >> 1) & 7);

		h = RowGroupReadHeader(fuzz_relation(), 7, &entry);
		FUZZ_ASSERT(h->nchunks >= 1 && h->chunk_first_row[0] == 0 &&
					h->chunk_first_row[h->nchunks] == h->nrows, "boundaries");
		for (c = 0; c < h->nchunks && c < 4096; c++)
		{
			int			a;

			FUZZ_ASSERT(RowGroupChunkRows(h, c) > 0, "empty chunk");
			FUZZ_ASSERT(RowGroupFindChunk(h, h->chunk_first_row[c]) == c, "find chunk");
			FUZZ_ASSERT(RowGroupFindChunk(h, h->chunk_first_row[c + 1] - 1) == c,
						"find chunk end");
			for (a = 0; a < h->natts && a < 64; a++)
			{
				Datum		min,
							max;

				if (RowGroupChunkMinMax(h, &att, a, c, &min, &max) && !att.attbyval)
				{
					ChunkTypeInfo t = {att.atttypid, att.attlen, false, TYPALIGN_INT};

					(void) fuzz_touch_datum(&t, min);
					(void) fuzz_touch_datum(&t, max);
				}
				(void) RowGroupChunkStatsMatch(h, &att, a, c);
			}
		}
	}
	FUZZ_END();
	return 0;
}
