/*-------------------------------------------------------------------------
 *
 * like_match.h
 *	  LIKE patterns compiled once and decided by byte search (like_match.c).
 *
 * IDENTIFICATION
 *	  src/cscan/like_match.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef LIKE_MATCH_H
#define LIKE_MATCH_H

/*
 * A LIKE pattern (escape character '\') split at its unescaped '%'s into
 * the literal segments between them, escapes removed.
 */
typedef struct LikePattern
{
	char	   *prefix;			/* the literal bytes before the first wildcard */
	int			prefix_len;
	bool		searchable;		/* LikePatternMatches can decide it */
	bool		has_percent;
	bool		anchored_start; /* no '%' first: segment 0 starts the value */
	bool		anchored_end;	/* no '%' last: the last segment ends it */
	int			nsegments;		/* non-empty segments, in pattern order */
	const char **segments;
	int		   *segment_lens;
} LikePattern;

extern void LikePatternCompile(const char *pattern, int len, LikePattern *compiled);
extern bool LikePatternMatches(const LikePattern *compiled, const char *value, int len);

#endif							/* LIKE_MATCH_H */
