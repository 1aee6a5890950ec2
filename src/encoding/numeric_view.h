/*-------------------------------------------------------------------------
 *
 * numeric_view.h
 *	  Reading the fields of an on-disk numeric without copying it.
 *
 * The stable on-disk numeric format (the layout pg_upgrade guarantees; see
 * src/backend/utils/adt/numeric.c) is a varlena holding a 2-byte header
 * word (short form: sign, display scale <= 63, weight in -64..63), or a
 * 4-byte one (sign + display scale, then an int16 weight), or a special
 * value's header (NaN, +Infinity, -Infinity), followed by base-10000
 * digits, most significant first.  The scaled-integer chunk encoding and
 * ColstoreAgg's numeric sums both read values through NumericViewOf.
 *
 * IDENTIFICATION
 *	  src/encoding/numeric_view.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef COLSTORE_NUMERIC_VIEW_H
#define COLSTORE_NUMERIC_VIEW_H

#include "postgres.h"

#include "pg_compat.h"

/* On-disk numeric header bits (see src/backend/utils/adt/numeric.c). */
#define NUM_SIGN_MASK			0xC000
#define NUM_POS					0x0000
#define NUM_NEG					0x4000
#define NUM_SHORT				0x8000
#define NUM_SPECIAL				0xC000
#define NUM_EXT_SIGN_MASK		0xF000
#define NUM_NAN					0xC000
#define NUM_PINF				0xD000
#define NUM_NINF				0xF000
#define NUM_SHORT_SIGN_MASK		0x2000
#define NUM_SHORT_DSCALE_MASK	0x1F80
#define NUM_SHORT_DSCALE_SHIFT	7
#define NUM_SHORT_DSCALE_MAX	(NUM_SHORT_DSCALE_MASK >> NUM_SHORT_DSCALE_SHIFT)
#define NUM_SHORT_WEIGHT_SIGN	0x0040
#define NUM_SHORT_WEIGHT_MASK	0x003F
#define NUM_SHORT_WEIGHT_MAX	NUM_SHORT_WEIGHT_MASK
#define NUM_SHORT_WEIGHT_MIN	(-(NUM_SHORT_WEIGHT_MASK + 1))
#define NUM_DSCALE_MASK			0x3FFF
#define NUM_NBASE				10000

/* What kind of value a numeric holds. */
typedef enum NumericViewKind
{
	NUMERIC_VIEW_FINITE,
	NUMERIC_VIEW_NAN,
	NUMERIC_VIEW_PINF,
	NUMERIC_VIEW_NINF
} NumericViewKind;

/* The fields of one numeric; digits point into the datum (unaligned). */
typedef struct NumericView
{
	NumericViewKind kind;
	bool		neg;
	int			dscale;			/* display scale */
	int			weight;			/* weight of the first digit, base 10000 */
	int			ndigits;
	const char *digits;			/* ndigits int16s, memcpy to read */
} NumericView;

/*
 * NumericViewOf
 *		Fill *view from the numeric datum d, which must not be compressed or
 *		external (a short varlena header is fine).  Returns false if it is,
 *		or if the bytes are not a well-formed numeric header; the digits are
 *		not checked (callers check the ones they use).
 */
static inline bool
NumericViewOf(Datum d, NumericView *view)
{
	struct varlena *v = (struct varlena *) DatumGetPointer(d);
	const char *p;
	Size		len;
	uint16		header;
	Size		hdrlen;

	if (VARATT_IS_EXTENDED(v) && !VARATT_IS_SHORT(v))
		return false;
	p = VARDATA_ANY(v);
	len = VARSIZE_ANY_EXHDR(v);
	if (len < sizeof(uint16))
		return false;
	memcpy(&header, p, sizeof(uint16));

	view->neg = false;
	view->dscale = 0;
	view->weight = 0;
	view->ndigits = 0;
	view->digits = NULL;
	if ((header & NUM_SIGN_MASK) == NUM_SPECIAL)
	{
		switch (header & NUM_EXT_SIGN_MASK)
		{
			case NUM_NAN:
				view->kind = NUMERIC_VIEW_NAN;
				return true;
			case NUM_PINF:
				view->kind = NUMERIC_VIEW_PINF;
				return true;
			case NUM_NINF:
				view->kind = NUMERIC_VIEW_NINF;
				return true;
		}
		return false;
	}
	view->kind = NUMERIC_VIEW_FINITE;
	if ((header & NUM_SIGN_MASK) == NUM_SHORT)
	{
		view->neg = (header & NUM_SHORT_SIGN_MASK) != 0;
		view->dscale = (header & NUM_SHORT_DSCALE_MASK) >> NUM_SHORT_DSCALE_SHIFT;
		view->weight = (int) (header & NUM_SHORT_WEIGHT_MASK);
		if (header & NUM_SHORT_WEIGHT_SIGN)
			view->weight -= NUM_SHORT_WEIGHT_MASK + 1;
		hdrlen = sizeof(uint16);
	}
	else
	{
		int16		w;

		if (len < sizeof(uint16) + sizeof(int16))
			return false;
		view->neg = (header & NUM_SIGN_MASK) == NUM_NEG;
		view->dscale = header & NUM_DSCALE_MASK;
		memcpy(&w, p + sizeof(uint16), sizeof(int16));
		view->weight = w;
		hdrlen = sizeof(uint16) + sizeof(int16);
	}
	if ((len - hdrlen) % sizeof(int16) != 0)
		return false;
	view->ndigits = (int) ((len - hdrlen) / sizeof(int16));
	view->digits = p + hdrlen;
	return true;
}

/* Digit k (0-based) of a finite view. */
static inline int
NumericViewDigit(const NumericView *view, int k)
{
	int16		digit;

	memcpy(&digit, view->digits + k * sizeof(int16), sizeof(int16));
	return digit;
}

#ifdef HAVE_INT128
/*
 * The largest scale a numeric is handled at as an int128 (nine base-10000
 * digits), by ColstoreAgg's sums, arithmetic and comparisons alike.
 */
#define NUMERIC_INT128_MAX_SCALE	36

/* *value = *value * 10^n (n >= 0); false on overflow. */
static inline bool
Int128MulPow10(int128 *value, int n)
{
	while (n-- > 0)
	{
		if (__builtin_mul_overflow(*value, (int128) 10, value))
			return false;
	}
	return true;
}

/*
 * NumericViewScaled
 *		A finite view's value as *value * 10^-*scale (0 <= *scale <=
 *		max_scale, a multiple of 4): false if it has more than 9 digits (36
 *		decimal digits), needs a larger scale, or does not fit an int128.
 */
static inline bool
NumericViewScaled(const NumericView *view, int max_scale, int128 *value, int *scale)
{
	int128		v = 0;
	int			k;

	Assert(view->kind == NUMERIC_VIEW_FINITE);
	if (view->ndigits > 9)
		return false;
	for (k = 0; k < view->ndigits; k++)
		v = v * NUM_NBASE + NumericViewDigit(view, k);
	/* v is the value times 10000^(ndigits - 1 - weight) */
	*scale = 4 * (view->ndigits - 1 - view->weight);
	for (; *scale < 0; *scale += 4)
	{
		if (__builtin_mul_overflow(v, (int128) NUM_NBASE, &v))
			return false;
	}
	if (view->ndigits == 0)
		*scale = 0;
	if (*scale > max_scale)
		return false;
	*value = view->neg ? -v : v;
	return true;
}
#endif

#endif							/* COLSTORE_NUMERIC_VIEW_H */
