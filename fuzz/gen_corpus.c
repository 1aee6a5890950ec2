/*-------------------------------------------------------------------------
 *
 * gen_corpus.c
 *	  Write the seed corpora of the fuzz targets (fuzz/corpus/<target>/)
 *	  with colstore's own encoders, so that every target starts from valid
 *	  inputs of every encoding, codec and page kind.
 *
 * Usage: gen_corpus DIR (scripts/fuzz.sh runs it with FUZZ_GEN_CORPUS=1).
 * Files are named seed-*; inputs the fuzzers found are kept beside them
 * under other names (crash-*, see fuzz/README.md).
 *
 * IDENTIFICATION
 *	  fuzz/gen_corpus.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <sys/stat.h>

#include "catalog/pg_type_d.h"
#include "port/pg_crc32c.h"

#include "encoding/codec.h"
#include "encoding/integer_encoding.h"
#include "encoding/numeric_encoding.h"
#include "storage/metapage.h"

#include "fuzz_common.h"

static char corpus_root[MAXPGPATH];

static void
emit(const char *target, const char *name, const char *prefix, Size plen,
	 const char *body, Size blen)
{
	char		dir[MAXPGPATH];
	char	   *buf = palloc(plen + blen);

	snprintf(dir, sizeof(dir), "%s/%s", corpus_root, target);
	if (plen > 0)
		memcpy(buf, prefix, plen);
	memcpy(buf + plen, body, blen);
	fuzz_write_file(dir, name, buf, plen + blen);
	pfree(buf);
}

/* Value i of case c for the type, as a datum (pass-by-reference: palloc'd). */
static Datum
make_value(const ChunkTypeInfo *type, int c, int i)
{
	int64		v;
	char		s[64];

	switch (c)
	{
		case 0:
			v = i;				/* sequence */
			break;
		case 1:
			v = 7;				/* constant */
			break;
		case 2:
			v = i % 5;			/* few distinct values */
			break;
		default:
			v = (int64) ((uint64) (i + 1) * UINT64CONST(6364136223846793005) >> 20);
			break;
	}
	if (type->typbyval)
		return Int64GetDatum(v);
	if (type->typid == NUMERICOID)
		return numeric_from_scaled(c == 3 ? v % 100000 : v, 2, 2 + (c == 2));
	if (c == 6)
	{
		/* text made of a few words: the word encoding (some empty) */
		static const char *const words[] = {
			"the", "quick", "brown", "fox", "jumps", "over", "lazy", "dog",
			"regular", "ideas", "sleep", "furiously", "  "
		};
		int			k;

		s[0] = '\0';
		for (k = 0; k < (i % 5) && strlen(s) < 40; k++)
		{
			strcat(s, words[(i * 7 + k * 3) % 13]);
			strcat(s, " ");
		}
	}
	else
		snprintf(s, sizeof(s), "value %lld", (long long) v);
	if (type->typlen == -1)
	{
		text	   *t = palloc(VARHDRSZ + strlen(s));

		SET_VARSIZE(t, VARHDRSZ + strlen(s));
		memcpy(VARDATA(t), s, strlen(s));
		return PointerGetDatum(t);
	}
	if (type->typlen == -2)
		return PointerGetDatum(pstrdup(s));
	{
		char	   *p = palloc0(type->typlen);

		memcpy(p, s, Min(strlen(s), (Size) type->typlen));
		return PointerGetDatum(p);
	}
}

static void
gen_chunks(void)
{
	int			t;

	for (t = 0; t < FUZZ_NTYPES; t++)
	{
		const ChunkTypeInfo *type = &fuzz_types[t];
		int			c;

		for (c = 0; c < 7; c++)
		{
			int			n = (c == 4) ? 3 : 200 + 13 * c;
			Datum	   *values = palloc(sizeof(Datum) * n);
			bool	   *isnull = palloc(sizeof(bool) * n);
			int			codec;
			int			i;

			for (i = 0; i < n; i++)
			{
				isnull[i] = (c == 5) ? true : (c == 3 && i % 7 == 3);
				values[i] = isnull[i] ? (Datum) 0 :
					make_value(type, c == 6 ? 6 : c % 4, i);
			}
			for (codec = 0; codec < COLSTORE_CODEC_COUNT; codec++)
			{
				EncodedChunk enc;
				char		name[64];
				char		prefix[2] = {(char) t, 0};

				if (codec > 0 && (c == 4 || c == 5 || (c + t + codec) % 3 != 0))
					continue;
				EncodeChunk(type, n, values, isnull, (ColstoreCodec) codec, 3, &enc);
				snprintf(name, sizeof(name), "seed-%s-%d-%s", fuzz_type_names[t], c,
						 ColstoreCodecName(codec));
				emit("chunk", name, prefix, 2, enc.data, enc.len);

				/* the bare payload, for fuzz_values (no NULLs, no codec) */
				if (codec == 0 && !type->typbyval && c != 3 && c != 5 &&
					(enc.encoding == CHUNK_ENCODING_PLAIN ||
					 enc.encoding == CHUNK_ENCODING_DICTIONARY ||
					 enc.encoding == CHUNK_ENCODING_SCALED_NUMERIC ||
					 enc.encoding == CHUNK_ENCODING_WORDS))
				{
					char		vp[4];
					uint16		n16 = (uint16) n;

					vp[0] = enc.encoding == CHUNK_ENCODING_PLAIN ? 0 :
						enc.encoding == CHUNK_ENCODING_DICTIONARY ? 1 :
						enc.encoding == CHUNK_ENCODING_SCALED_NUMERIC ? 2 : 3;
					vp[1] = (char) (t - 5);
					memcpy(vp + 2, &n16, 2);
					emit("values", name, vp, 4, enc.data + 40, enc.len - 40);
				}
			}
		}
	}
}

static void
gen_intstreams(void)
{
	int			c;

	for (c = 0; c < 8; c++)
	{
		uint16		n = (c == 7) ? 1 : 150 + 40 * c;
		uint64	   *v = palloc(sizeof(uint64) * n);
		EncBuf		eb;
		char		name[64];
		int			i;

		for (i = 0; i < n; i++)
		{
			switch (c)
			{
				case 0:
					v[i] = i;
					break;		/* delta, constant step */
				case 1:
					v[i] = 42;
					break;		/* constant */
				case 2:
					v[i] = i % 1000 == 0 ? 0 : (uint64) (i % 7) * 3;
					break;
				case 3:
					v[i] = (uint64) (i / 37);
					break;		/* runs */
				case 4:
					v[i] = (uint64) -(int64) i * 100000;
					break;
				case 5:
					v[i] = (uint64) i * UINT64CONST(0x9E3779B97F4A7C15);
					break;
				case 6:
					v[i] = i % 50;
					break;		/* delta over runs */
				default:
					v[i] = 5;
					break;
			}
		}
		encbuf_init(&eb, 64);
		(void) intenc_encode(&eb, v, n);
		snprintf(name, sizeof(name), "seed-stream-%d", c);
		emit("intstream", name, (char *) &n, 2, eb.data, eb.len);
	}
}

static void
gen_codecs(void)
{
	int			codec;
	int			c;

	for (codec = 1; codec < COLSTORE_CODEC_COUNT; codec++)
	{
		for (c = 0; c < 3; c++)
		{
			uint32		rawlen = 100 + 400 * c;
			char	   *raw = palloc(rawlen);
			char	   *comp;
			Size		complen;
			char		prefix[5];
			char		name[64];
			uint32		i;

			for (i = 0; i < rawlen; i++)
				raw[i] = c == 0 ? 'a' : (char) ("colstore"[i % 8] + (c == 2 ? i % 3 : 0));
			if (!codec_compress((ColstoreCodec) codec, 3, raw, rawlen, &comp, &complen))
				continue;
			prefix[0] = (char) codec;
			memcpy(prefix + 1, &rawlen, 4);
			snprintf(name, sizeof(name), "seed-%s-%d", ColstoreCodecName(codec), c);
			emit("codec", name, prefix, 5, comp, complen);
		}
	}
}

/* A row group header of natts int4 columns (kind 0) with typed stats. */
static void
gen_rowgroup_headers(void)
{
	int			c;

	for (c = 0; c < 3; c++)
	{
		uint16		natts = 1 + c;
		uint32		nchunks = 1 + c;
		uint32		nrows = 1000 * nchunks;
		StringInfoData buf;
		RowGroupHeaderData hd;
		uint32		stats_len;
		uint32		a;
		uint32		k;
		pg_crc32c	crc;
		char		name[64];
		char		flags = 0;

		initStringInfo(&buf);
		memset(&hd, 0, sizeof(hd));
		hd.rh_magic = ROWGROUP_HEADER_MAGIC;
		hd.rh_nrows = nrows;
		hd.rh_natts = natts;
		hd.rh_nchunks = nchunks;
		appendBinaryStringInfo(&buf, (char *) &hd, sizeof(hd));
		for (k = 0; k <= nchunks; k++)
		{
			uint32		first = k * 1000;

			appendBinaryStringInfo(&buf, (char *) &first, 4);
		}
		/* each chunk's stats: min, max (uint32 len + Datum), type, collation */
		stats_len = 2 * (4 + sizeof(Datum)) + 2 * sizeof(Oid);
		for (a = 0; a < natts; a++)
			for (k = 0; k < nchunks; k++)
			{
				ChunkDesc	cd;

				memset(&cd, 0, sizeof(cd));
				cd.cd_location.sp_block = 1 + a;
				cd.cd_location.sp_offset = 24 + 100 * k;
				cd.cd_len = 100;
				cd.cd_encoding = CHUNK_ENCODING_FOR;
				cd.cd_flags = CHUNK_HAS_MINMAX | CHUNK_STATS_TYPED | (k == 0 ? CHUNK_ASCENDING : 0);
				cd.cd_raw_bytes = 4000;
				cd.cd_stats_offset = (a * nchunks + k) * stats_len;
				cd.cd_stats_len = stats_len;
				appendBinaryStringInfo(&buf, (char *) &cd, sizeof(cd));
			}
		for (a = 0; a < natts * nchunks; a++)
		{
			uint32		len = 4;
			Datum		min = Int32GetDatum(a);
			Datum		max = Int32GetDatum(a + 1000);
			Oid			typ = INT4OID;
			Oid			coll = InvalidOid;

			appendBinaryStringInfo(&buf, (char *) &len, 4);
			appendBinaryStringInfo(&buf, (char *) &min, sizeof(Datum));
			appendBinaryStringInfo(&buf, (char *) &len, 4);
			appendBinaryStringInfo(&buf, (char *) &max, sizeof(Datum));
			appendBinaryStringInfo(&buf, (char *) &typ, sizeof(Oid));
			appendBinaryStringInfo(&buf, (char *) &coll, sizeof(Oid));
		}
		((RowGroupHeaderData *) buf.data)->rh_len = buf.len;
		INIT_CRC32C(crc);
		COMP_CRC32C(crc, buf.data, buf.len);
		FIN_CRC32C(crc);
		((RowGroupHeaderData *) buf.data)->rh_crc = crc;
		snprintf(name, sizeof(name), "seed-header-%d", c);
		emit("rowgroup_header", name, &flags, 1, buf.data, buf.len);

		/* the same header with text statistics */
		if (c == 0)
		{
			StringInfoData tb;
			const char *v = "\x13" "hello"; /* short varlena "hello" */
			uint32		vlen = 6;
			Oid			typ = TEXTOID;
			Oid			coll = 100;
			ChunkDesc  *cd;
			Size		fixed = sizeof(hd) + 8 + sizeof(ChunkDesc);

			initStringInfo(&tb);
			appendBinaryStringInfo(&tb, buf.data, fixed);
			appendBinaryStringInfo(&tb, (char *) &vlen, 4);
			appendBinaryStringInfo(&tb, v, vlen);
			appendBinaryStringInfo(&tb, (char *) &vlen, 4);
			appendBinaryStringInfo(&tb, v, vlen);
			appendBinaryStringInfo(&tb, (char *) &typ, sizeof(Oid));
			appendBinaryStringInfo(&tb, (char *) &coll, sizeof(Oid));
			cd = (ChunkDesc *) (tb.data + sizeof(hd) + 8);
			cd->cd_stats_offset = 0;
			cd->cd_stats_len = tb.len - fixed;
			((RowGroupHeaderData *) tb.data)->rh_len = tb.len;
			((RowGroupHeaderData *) tb.data)->rh_crc = 0;
			INIT_CRC32C(crc);
			COMP_CRC32C(crc, tb.data, tb.len);
			FIN_CRC32C(crc);
			((RowGroupHeaderData *) tb.data)->rh_crc = crc;
			flags = 2 << 1;		/* text column */
			emit("rowgroup_header", "seed-header-text", &flags, 1, tb.data, tb.len);
		}
	}
}

/* Block 0: a metapage of a directory of count entries starting at block 1. */
static void
init_meta(char *page, uint32 count, BlockNumber head, BlockNumber tail)
{
	ColstoreMetaPage meta;

	ColstoreInitPage(page, COLSTORE_PAGE_META);
	meta = ColstorePageGetMeta(page);
	meta->cm_magic = COLSTORE_MAGIC;
	meta->cm_version = COLSTORE_FORMAT_VERSION;
	meta->cm_dir_head = head;
	meta->cm_dir_tail = tail;
	meta->cm_dir_count = count;
	meta->cm_next_row = 1000000;
	meta->cm_stream_tail = InvalidBlockNumber;
	((PageHeader) page)->pd_lower =
		(char *) meta + sizeof(ColstoreMetaPageData) - page;
}

static void
gen_directories(void)
{
	int			c;

	for (c = 0; c < 3; c++)
	{
		/* c = 0: one directory page; 1: two pages; 2: empty table */
		uint32		count = c == 0 ? 5 : c == 1 ? DIR_ENTRIES_PER_PAGE + 3 : 0;
		int			npages = c == 0 ? 2 : c == 1 ? 4 : 1;
		char	   *pages = palloc0((Size) npages * BLCKSZ);
		uint32		i;
		char		name[64];

		init_meta(pages, count, count ? 1 : InvalidBlockNumber,
				  count ? (c == 1 ? 3 : 1) : InvalidBlockNumber);
		for (i = 0; i < count; i++)
		{
			/* c = 1: the second directory page is block 3 (block 2: data) */
			BlockNumber blk = (i < (uint32) DIR_ENTRIES_PER_PAGE) ? 1 : 3;
			char	   *page = pages + (Size) blk * BLCKSZ;
			int			slot = i % DIR_ENTRIES_PER_PAGE;
			RowGroupDirEntry e;

			if (slot == 0)
			{
				ColstoreInitPage(page, COLSTORE_PAGE_DIRECTORY);
				if (blk == 1 && c == 1)
					ColstorePageGetOpaque(page)->cp_next = 3;
			}
			memset(&e, 0, sizeof(e));
			e.rg_first_row = (uint64) i * 1000;
			e.rg_nrows = i % 4 == 3 ? 291 : 1000;
			e.rg_kind = i % 4 == 1 ? RG_KIND_RESERVATION :
				i % 4 == 3 ? RG_KIND_DELTA_PAGE : RG_KIND_ROWGROUP;
			e.rg_flags = i % 3 == 0 ? RG_FLAG_FROZEN : 0;
			e.rg_xmin = 700 + i;
			e.rg_header.sp_block = 2;
			e.rg_header.sp_offset = 24;
			e.rg_header_len = 100;
			e.rg_natts = 2;
			e.rg_nchunks = 1;
			memcpy(page + COLSTORE_DATA_START + slot * sizeof(e), &e, sizeof(e));
			((PageHeader) page)->pd_lower = COLSTORE_DATA_START + (slot + 1) * sizeof(e);
		}
		if (c == 1)
			ColstoreInitPage(pages + 2 * BLCKSZ, COLSTORE_PAGE_DATA);
		snprintf(name, sizeof(name), "seed-directory-%d", c);
		emit("directory", name, NULL, 0, pages, (Size) npages * BLCKSZ);
	}
}

static void
gen_promotion_maps(void)
{
	int			c;

	for (c = 0; c < 2; c++)
	{
		/* block 0: metapage; 1: root; 2: leaf of rows 0 ..; 3: second root */
		int			npages = c == 0 ? 3 : 4;
		char	   *pages = palloc0((Size) npages * BLCKSZ);
		char		prefix[12];
		uint32		nrows = c == 0 ? 5000 : 3000000;
		BlockNumber root = 1;
		uint32		row = 3;
		ItemPointerData *leaf;
		char		name[64];
		int			i;

		init_meta(pages, 0, InvalidBlockNumber, InvalidBlockNumber);
		ColstoreInitPage(pages + BLCKSZ, COLSTORE_PAGE_STATE_ROOT);
		((PageHeader) (pages + BLCKSZ))->pd_lower = COLSTORE_DATA_END;
		((BlockNumber *) (pages + BLCKSZ + COLSTORE_DATA_START))[0] = 2;
		if (c == 1)
		{
			ColstorePageGetOpaque(pages + BLCKSZ)->cp_next = 3;
			ColstoreInitPage(pages + 3 * BLCKSZ, COLSTORE_PAGE_STATE_ROOT);
			((PageHeader) (pages + 3 * BLCKSZ))->pd_lower = COLSTORE_DATA_END;
		}
		ColstoreInitPage(pages + 2 * BLCKSZ, COLSTORE_PAGE_STATE_LEAF);
		((PageHeader) (pages + 2 * BLCKSZ))->pd_lower = COLSTORE_DATA_END;
		leaf = (ItemPointerData *) (pages + 2 * BLCKSZ + COLSTORE_DATA_START);
		for (i = 0; i < 40; i += 3)
			ItemPointerSet(&leaf[i], 10 + i, 1 + i % 5);
		memcpy(prefix, &nrows, 4);
		memcpy(prefix + 4, &root, 4);
		memcpy(prefix + 8, &row, 4);
		snprintf(name, sizeof(name), "seed-map-%d", c);
		emit("promotion_map", name, prefix, 12, pages, (Size) npages * BLCKSZ);
	}
}

int
main(int argc, char **argv)
{
	if (argc != 2)
	{
		fprintf(stderr, "usage: gen_corpus DIR\n");
		return 2;
	}
	strlcpy(corpus_root, argv[1], sizeof(corpus_root));
	mkdir(corpus_root, 0777);
	gen_chunks();
	gen_intstreams();
	gen_codecs();
	gen_rowgroup_headers();
	gen_directories();
	gen_promotion_maps();
	return 0;
}
