/*-------------------------------------------------------------------------
 *
 * numeric_encoding.c
 *	  Numeric values as scaled 64-bit integers.
 *
 * A chunk of numerics qualifies when every value is finite (no NaN or
 * infinity) and every value is m * 10^-s for one common s and an int64 m.
 * s is the smallest exponent that makes every value an integer, which may
 * be far below the display scales: (i % 10000)::numeric / 100 has display
 * scale 16 or 20 depending on magnitude, but s = 2.  Display scales are kept
 * per value, as their own integer stream (nearly free when they repeat).
 * The payload is
 *
 *	uint16 s, an integer stream (integer_encoding.c) of the n display
 *	scales, an integer stream of the n values m
 *
 * so money-like columns cost a few bits per value and sequences almost
 * nothing.
 *
 * Both directions work on the stable on-disk numeric format (the layout
 * pg_upgrade guarantees; see src/backend/utils/adt/numeric.c): a varlena
 * holding a 2-byte header word (short form: sign, dscale <= 63, weight in
 * -64..63) or a 4-byte one (sign + dscale, int16 weight), followed by
 * base-10000 digits, most significant first, with no leading or trailing
 * zero digits; zero has no digits, weight 0 and positive sign.  The encoder
 * reads it with overflow checks, and anything unexpected disqualifies the
 * chunk, which then falls back to the varlena encodings.  The parser checks
 * that every value fits its display scale; the decoder then builds exactly
 * what make_result() would build for the value and display scale d (so 1.50
 * stays 1.50 and 0.00 stays 0.00, byte for byte), all values in one
 * allocation with no per-value function calls, or one value on its own for
 * random access.
 *
 * IDENTIFICATION
 *	  src/encoding/numeric_encoding.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "pg_compat.h"

#include "common/int.h"
#include "utils/memutils.h"

#include "encoding/integer_encoding.h"
#include "encoding/numeric_encoding.h"
#include "encoding/numeric_view.h"


/* an int64 has at most 19 decimal digits: at most 7 base-10000 digits */
#define MAX_GROUPS				7
#define MAX_NUMERIC_SIZE		(VARHDRSZ + 4 + MAX_GROUPS * sizeof(int16))

static const int64 pow10_table[19] = {
	INT64CONST(1), INT64CONST(10), INT64CONST(100), INT64CONST(1000),
	INT64CONST(10000), INT64CONST(100000), INT64CONST(1000000),
	INT64CONST(10000000), INT64CONST(100000000), INT64CONST(1000000000),
	INT64CONST(10000000000), INT64CONST(100000000000),
	INT64CONST(1000000000000), INT64CONST(10000000000000),
	INT64CONST(100000000000000), INT64CONST(1000000000000000),
	INT64CONST(10000000000000000), INT64CONST(100000000000000000),
	INT64CONST(1000000000000000000)
};

/*
 * parse_one
 *		Express one numeric datum as mant * 10^exp10 with mant not divisible
 *		by 10 (or mant = 0, exp10 = 0), and report its display scale.
 *
 * Returns false if the value is NaN or infinite, malformed, or its digits
 * do not fit in an int64.
 */
static bool
parse_one(Datum d, int64 *mant, int *exp10, int *dscale)
{
	NumericView view;
	int64		acc = 0;
	int			e;
	int			k;

	if (!NumericViewOf(d, &view) || view.kind != NUMERIC_VIEW_FINITE)
		return false;			/* malformed, NaN, +Inf, -Inf */
	*dscale = view.dscale;
	if (view.ndigits == 0)
	{
		*mant = 0;
		*exp10 = 0;
		return true;
	}
	if (view.ndigits > MAX_GROUPS)
		return false;

	for (k = 0; k < view.ndigits; k++)
	{
		int			digit = NumericViewDigit(&view, k);

		if (digit < 0 || digit >= NUM_NBASE)
			return false;
		if (pg_mul_s64_overflow(acc, NUM_NBASE, &acc) ||
			pg_add_s64_overflow(acc, digit, &acc))
			return false;
	}
	if (acc == 0)
		return false;			/* not canonical */

	/* acc is the value times 10000^(ndigits - 1 - weight) */
	e = 4 * (view.weight - view.ndigits + 1);
	while (acc % 10 == 0)
	{
		acc /= 10;
		e++;
	}
	*mant = view.neg ? -acc : acc;
	*exp10 = e;
	return true;
}

/*
 * numeric_try_scale
 *		Try to express the non-null numerics values[0..n-1] as int64
 *		integers times 10^-s with one common s.
 *
 * On success fills scaled[0..n-1] (the integers), dscales[0..n-1] (each
 * value's display scale) and *iscale (s), and returns true.
 */
bool
numeric_try_scale(const Datum *values, uint64 n, uint64 *scaled,
				  uint64 *dscales, int *iscale)
{
	int		   *exps = alloc_array(n, sizeof(int));
	uint64		i;
	int			s = 0;
	bool		ok = true;

	/* pass 1: mantissas, exponents, display scales, common s */
	for (i = 0; i < n && ok; i++)
	{
		int64		m;
		int			e;
		int			ds;

		if (!parse_one(values[i], &m, &e, &ds) || -e > ds)
			ok = false;
		else
		{
			scaled[i] = (uint64) m;
			dscales[i] = (uint64) ds;
			exps[i] = e;
			if (m != 0 && -e > s)
				s = -e;
		}
	}

	/* pass 2: bring every mantissa to exponent -s */
	for (i = 0; i < n && ok; i++)
	{
		int			shift = exps[i] + s;	/* >= 0 */
		int64		m = (int64) scaled[i];

		if (m == 0 || shift == 0)
			continue;
		if (shift > 18 || pg_mul_s64_overflow(m, pow10_table[shift], &m))
			ok = false;
		else
			scaled[i] = (uint64) m;
	}
	pfree(exps);
	if (!ok)
		return false;
	*iscale = s;
	return true;
}

/* Append the scaled-numeric payload. */
void
numeric_encode_scaled(EncBuf *buf, const uint64 *scaled,
					  const uint64 *dscales, uint64 n, int iscale)
{
	encbuf_u16(buf, (uint16) iscale);
	intenc_encode(buf, dscales, n);
	intenc_encode(buf, scaled, n);
}

/*
 * numeric_encode_scaled_bytes
 *		Append the scaled-numeric payload with the values' stream of kind
 *		(FOR or DELTA) in whole bytes (intenc_encode_bytes) and return true,
 *		or append nothing and return false if that stream would not differ.
 */
bool
numeric_encode_scaled_bytes(EncBuf *buf, const uint64 *scaled,
							const uint64 *dscales, uint64 n, int iscale,
							uint8 kind)
{
	Size		start = buf->len;

	encbuf_u16(buf, (uint16) iscale);
	intenc_encode(buf, dscales, n);
	if (intenc_encode_bytes(buf, scaled, n, kind) == 0)
	{
		buf->len = start;
		return false;
	}
	return true;
}

/*
 * scaled_value_valid
 *		Can m * 10^-s be shown with display scale dscale, i.e. is dscale in
 *		range and are all of m's nonzero digits within it?  This is what a
 *		valid image guarantees for every value (the encoder takes dscale from
 *		the value itself); s is in 0..NUM_DSCALE_MASK.
 */
static bool
scaled_value_valid(int64 m, int s, uint64 dscale)
{
	uint64		u = m < 0 ? (uint64) (-(m + 1)) + 1 : (uint64) m;
	int64		k;

	if (dscale > NUM_DSCALE_MASK)
		return false;
	/* the lowest s - dscale decimal digits of |m| must be zero */
	for (k = (int64) s - (int64) dscale; k > 0 && u != 0; k--)
	{
		if (u % 10 != 0)
			return false;
		u /= 10;
	}
	return true;
}

/*
 * build_numeric
 *		Write at dst the numeric m * 10^-s with display scale dscale, in the
 *		exact form make_result() produces; return the bytes written (at most
 *		MAX_NUMERIC_SIZE).  Requires scaled_value_valid(m, s, dscale).
 */
static Size
build_numeric(char *dst, int64 m, int s, int dscale)
{
	bool		neg = m < 0;
	uint64		u = neg ? (uint64) (-(m + 1)) + 1 : (uint64) m;
	int			groups[MAX_GROUPS + 1];
	int			gmin;
	int			gmax;
	int			g;
	int			p;
	int			ndigits;
	int			weight;
	Size		size;
	char	   *q;

	if (u == 0)
	{
		/* zero: no digits, weight 0, positive; short form if dscale allows */
		if (dscale <= NUM_SHORT_DSCALE_MAX)
		{
			uint16		h = NUM_SHORT | (dscale << NUM_SHORT_DSCALE_SHIFT);

			SET_VARSIZE(dst, VARHDRSZ + 2);
			memcpy(dst + VARHDRSZ, &h, 2);
			return VARHDRSZ + 2;
		}
		else
		{
			uint16		h = NUM_POS | (dscale & NUM_DSCALE_MASK);
			int16		w = 0;

			SET_VARSIZE(dst, VARHDRSZ + 4);
			memcpy(dst + VARHDRSZ, &h, 2);
			memcpy(dst + VARHDRSZ + 2, &w, 2);
			return VARHDRSZ + 4;
		}
	}

	/*
	 * Decimal digit i of u (from the right) has exponent p = i - s and
	 * belongs to base-10000 group floor(p / 4).
	 */
	gmin = (-s >= 0) ? (-s) / 4 : -((s + 3) / 4);
	memset(groups, 0, sizeof(groups));
	gmax = gmin;
	for (p = -s; u != 0; p++)
	{
		int			digit = (int) (u % 10);
		int			gi = (p >= 0) ? p / 4 : -((-p + 3) / 4);

		Assert(digit == 0 || -p <= dscale);
		u /= 10;
		groups[gi - gmin] += digit * (int) pow10_table[p - 4 * gi];
		gmax = gi;
	}
	/* strip zero groups at the low end (none at the high end by design) */
	while (groups[gmin - gmin] == 0 && gmin < gmax)
	{
		/* shift the window: drop the lowest group */
		memmove(groups, groups + 1, sizeof(int) * (gmax - gmin));
		groups[gmax - gmin] = 0;
		gmin++;
	}
	ndigits = gmax - gmin + 1;
	weight = gmax;

	if (dscale <= NUM_SHORT_DSCALE_MAX &&
		weight <= NUM_SHORT_WEIGHT_MAX && weight >= NUM_SHORT_WEIGHT_MIN)
	{
		uint16		h = NUM_SHORT |
			(neg ? NUM_SHORT_SIGN_MASK : 0) |
			(dscale << NUM_SHORT_DSCALE_SHIFT) |
			(weight < 0 ? NUM_SHORT_WEIGHT_SIGN : 0) |
			(weight & NUM_SHORT_WEIGHT_MASK);

		size = VARHDRSZ + 2 + ndigits * sizeof(int16);
		memcpy(dst + VARHDRSZ, &h, 2);
		q = dst + VARHDRSZ + 2;
	}
	else
	{
		uint16		h = (neg ? NUM_NEG : NUM_POS) | (dscale & NUM_DSCALE_MASK);
		int16		w = (int16) weight;

		size = VARHDRSZ + 4 + ndigits * sizeof(int16);
		memcpy(dst + VARHDRSZ, &h, 2);
		memcpy(dst + VARHDRSZ + 2, &w, 2);
		q = dst + VARHDRSZ + 4;
	}
	SET_VARSIZE(dst, size);
	/* most significant group first */
	for (g = gmax; g >= gmin; g--)
	{
		int16		digit = (int16) groups[g - gmin];

		memcpy(q, &digit, sizeof(int16));
		q += sizeof(int16);
	}
	return size;
}

/*
 * numeric_parse
 *		Parse and validate a scaled-numeric payload of n values at the
 *		reader's position into *sn, advancing the reader past it.
 *
 * Every (value, display scale) pair is checked with scaled_value_valid.
 * With keep, the decoded display scales and values are left in sn (for
 * numeric_decode_scaled, which frees them).  Returns false with *detail on
 * corruption.
 */
bool
numeric_parse(ByteReader *r, uint64 n, bool keep, ScaledNumeric *sn,
			  const char **detail)
{
	uint16		iscale;
	IntStreamIter dit;
	IntStreamIter vit;
	uint64		dbuf[INTENC_BLOCK];
	uint64		vbuf[INTENC_BLOCK];
	uint64	   *dscales;
	uint64	   *vals;
	uint64		count;
	uint64		dscale;
	uint64		i;

	memset(sn, 0, sizeof(*sn));
	if (!reader_u16(r, &iscale))
	{
		*detail = "truncated scaled numeric payload";
		return false;
	}
	if (iscale > NUM_DSCALE_MASK)
	{
		*detail = "numeric scale out of range";
		return false;
	}
	sn->iscale = iscale;
	if (!intenc_parse(r, n, &sn->dscales, detail) ||
		!intenc_parse(r, n, &sn->values, detail))
		return false;
	if (keep)
	{
		sn->dscales_all = alloc_array(n, sizeof(uint64));
		sn->values_all = alloc_array(n, sizeof(uint64));
	}

	/*
	 * One display scale for every value, at least the common scale and in
	 * range (numeric(p, s) columns: s >= iscale, since iscale is the least
	 * scale that makes every value an integer): scaled_value_valid holds for
	 * every value whatever its digits, so only the values need reading, and
	 * only when they are kept.
	 */
	if (intenc_constant(&sn->dscales, &dscale) && dscale >= iscale &&
		dscale <= NUM_DSCALE_MASK)
	{
		if (keep)
		{
			intenc_iter_init(&vit, &sn->values);
			(void) intenc_iter_batch(&vit, sn->values_all, vbuf, &vals);
			for (i = 0; i < n; i++)
				sn->dscales_all[i] = dscale;
		}
		return true;
	}
	intenc_iter_init(&dit, &sn->dscales);
	intenc_iter_init(&vit, &sn->values);
	while ((count = intenc_iter_batch(&dit, sn->dscales_all, dbuf, &dscales)) > 0)
	{
		(void) intenc_iter_batch(&vit, sn->values_all, vbuf, &vals);
		for (i = 0; i < count; i++)
		{
			if (!scaled_value_valid((int64) vals[i], iscale, dscales[i]))
			{
				*detail = dscales[i] > NUM_DSCALE_MASK ?
					"numeric scale out of range" :
					"numeric digits beyond display scale";
				if (sn->dscales_all)
				{
					pfree(sn->dscales_all);
					pfree(sn->values_all);
				}
				return false;
			}
		}
	}
	return true;
}

/*
 * numeric_decode_scaled
 *		Decode a scaled-numeric payload parsed with keep into numeric datums
 *		out[0..n-1], all in one allocation in CurrentMemoryContext.
 */
void
numeric_decode_scaled(ScaledNumeric *sn, Datum *out)
{
	uint64		n = sn->values.n;
	char	   *mem = alloc_array(n, INTALIGN(MAX_NUMERIC_SIZE));
	Size		off = 0;
	uint64		i;

	for (i = 0; i < n; i++)
	{
		char	   *dst = mem + off;

		off += INTALIGN(build_numeric(dst, (int64) sn->values_all[i],
									  sn->iscale, (int) sn->dscales_all[i]));
		out[i] = PointerGetDatum(dst);
	}
	pfree(sn->values_all);
	pfree(sn->dscales_all);
	sn->values_all = sn->dscales_all = NULL;
}

/*
 * numeric_from_scaled
 *		The numeric datum m * 10^-scale with display scale dscale, as
 *		numeric_decode_scaled builds it, in its own allocation in
 *		CurrentMemoryContext; m, scale and dscale come from a chunk
 *		DecodeChunkScaled decoded (so they are valid).
 */
Datum
numeric_from_scaled(int64 m, int scale, int dscale)
{
	char	   *dst = palloc(MAX_NUMERIC_SIZE);

	(void) build_numeric(dst, m, scale, dscale);
	return PointerGetDatum(dst);
}

/*
 * numeric_build_index
 *		Prepare a parsed payload for numeric_get; returns the bytes allocated
 *		in CurrentMemoryContext.
 */
Size
numeric_build_index(ScaledNumeric *sn)
{
	return intenc_build_index(&sn->dscales) + intenc_build_index(&sn->values);
}

/*
 * numeric_get
 *		Numeric datum of value index of an indexed payload, the same bytes
 *		numeric_decode_scaled builds, in its own allocation in
 *		CurrentMemoryContext.
 */
Datum
numeric_get(const ScaledNumeric *sn, uint64 index)
{
	char	   *dst = palloc(MAX_NUMERIC_SIZE);

	(void) build_numeric(dst, (int64) intenc_get(&sn->values, index),
						 sn->iscale, (int) intenc_get(&sn->dscales, index));
	return PointerGetDatum(dst);
}
