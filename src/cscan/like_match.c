/*-------------------------------------------------------------------------
 *
 * like_match.c
 *	  Deciding LIKE (escape character '\') by byte search, for patterns made
 *	  only of literal text and '%'.
 *
 * LikePatternCompile splits a pattern at its unescaped '%'s into literal
 * segments and notes its literal prefix, which chunk pruning uses.  For a
 * pattern without '_' (and without a trailing escape, which LIKE rejects),
 * "value LIKE pattern" holds iff the value starts with the first segment
 * (unless the pattern starts with '%'), ends with the last (unless it ends
 * with '%'), and holds the segments in between in order without overlap;
 * taking each segment's leftmost occurrence after the previous one is then
 * optimal, so one left-to-right pass decides it.  A pattern without '%' is
 * equality.
 *
 * Byte search is PostgreSQL's LIKE only where a match of a segment's bytes
 * cannot start inside a character: in single-byte encodings, and in UTF-8,
 * where a character's first byte is never another's continuation byte and
 * '%' and '\' are ASCII (what like.c's UTF8_MatchText relies on too).  In
 * other server encodings, and for patterns with '_', compiled->searchable
 * is false and the caller calls LIKE's function.  LIKE ignores the
 * collation once it is deterministic, which the caller checks.
 *
 * IDENTIFICATION
 *	  src/cscan/like_match.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "mb/pg_wchar.h"

#include "cscan/like_match.h"

/*
 * LikePatternCompile
 *		Compile the len bytes of pattern into *compiled, in
 *		CurrentMemoryContext.
 */
void
LikePatternCompile(const char *pattern, int len, LikePattern *compiled)
{
	char	   *literal = palloc(len + 1);
	int			nliteral = 0;
	int			segment_start = 0;
	bool		wildcard_seen = false;
	bool		ends_with_percent = false;
	int			i;

	memset(compiled, 0, sizeof(LikePattern));
	compiled->segments = palloc(sizeof(char *) * (len / 2 + 1));
	compiled->segment_lens = palloc(sizeof(int) * (len / 2 + 1));
	compiled->searchable = pg_database_encoding_max_length() == 1 ||
		GetDatabaseEncoding() == PG_UTF8;
	compiled->anchored_start = len == 0 || pattern[0] != '%';
	compiled->prefix = literal;
	for (i = 0; i < len; i++)
	{
		char		c = pattern[i];

		ends_with_percent = c == '%';
		if (c == '%' || c == '_')
		{
			if (!wildcard_seen)
				compiled->prefix_len = nliteral;
			wildcard_seen = true;
			if (c == '_')
			{
				compiled->searchable = false;
				continue;
			}
			compiled->has_percent = true;
			if (nliteral > segment_start)
			{
				compiled->segments[compiled->nsegments] = literal + segment_start;
				compiled->segment_lens[compiled->nsegments++] = nliteral - segment_start;
			}
			segment_start = nliteral;
			continue;
		}
		if (c == '\\')
		{
			if (i + 1 == len)
			{
				/*
				 * LIKE's function raises its error for this on every value:
				 * no prefix, so that no value escapes the call
				 */
				compiled->searchable = false;
				compiled->prefix_len = 0;
				return;
			}
			c = pattern[++i];
		}
		literal[nliteral++] = c;
	}
	if (!wildcard_seen)
		compiled->prefix_len = nliteral;
	if (nliteral > segment_start)
	{
		compiled->segments[compiled->nsegments] = literal + segment_start;
		compiled->segment_lens[compiled->nsegments++] = nliteral - segment_start;
	}
	compiled->anchored_end = !ends_with_percent;
}

/* The first occurrence of needle in haystack, or NULL. */
static const char *
FindBytes(const char *haystack, int hlen, const char *needle, int nlen)
{
	const char *end = haystack + hlen - nlen;
	const char *p = haystack;

	while (p <= end)
	{
		p = memchr(p, needle[0], end - p + 1);
		if (p == NULL)
			return NULL;
		if (memcmp(p + 1, needle + 1, nlen - 1) == 0)
			return p;
		p++;
	}
	return NULL;
}

/*
 * LikePatternMatches
 *		Does the len bytes of value match the compiled pattern?  Only for a
 *		pattern compiled->searchable says this can decide.
 */
bool
LikePatternMatches(const LikePattern *compiled, const char *value, int len)
{
	int			first = 0;
	int			last = compiled->nsegments;
	int			pos = 0;
	int			end = len;
	int			k;

	Assert(compiled->searchable);
	if (!compiled->has_percent)
		return len == compiled->prefix_len &&
			memcmp(value, compiled->prefix, len) == 0;
	if (compiled->anchored_start && last > 0)
	{
		int			seglen = compiled->segment_lens[0];

		if (len < seglen || memcmp(value, compiled->segments[0], seglen) != 0)
			return false;
		pos = seglen;
		first = 1;
	}
	if (compiled->anchored_end && last > first)
	{
		int			seglen = compiled->segment_lens[last - 1];

		if (end - pos < seglen ||
			memcmp(value + len - seglen, compiled->segments[last - 1], seglen) != 0)
			return false;
		end = len - seglen;
		last--;
	}
	for (k = first; k < last; k++)
	{
		int			seglen = compiled->segment_lens[k];
		const char *found = FindBytes(value + pos, end - pos,
									  compiled->segments[k], seglen);

		if (found == NULL)
			return false;
		pos = (found - value) + seglen;
	}
	return true;
}
