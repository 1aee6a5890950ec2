/*-------------------------------------------------------------------------
 *
 * colstore.h
 *	  Server-wide settings (GUCs) of colstore.
 *
 * IDENTIFICATION
 *	  src/colstore.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef COLSTORE_H
#define COLSTORE_H

/* Defaults for tables without their own options; see colstore.c. */
extern int	colstore_default_codec;
extern int	colstore_default_compression_level;
extern int	colstore_default_row_group_size;
extern int	colstore_default_chunk_size;
extern int	colstore_chunk_cache_size_kb;
extern bool colstore_enable_custom_scan;
extern bool colstore_enable_custom_agg;
extern bool colstore_enable_custom_index_scan;
extern bool colstore_enable_join_filter;
extern bool colstore_enable_key_range_join;
extern bool colstore_enable_decorrelation;
extern int	colstore_delta_insert_rows;
extern bool colstore_auto_compaction;
extern int	colstore_max_compaction_workers;
extern int	colstore_compaction_update_age;

/* Bounds shared by the GUCs and per-table options. */
#define COLSTORE_MIN_ROW_GROUP_SIZE		1000
#define COLSTORE_MAX_ROW_GROUP_SIZE		10000000
#define COLSTORE_MIN_CHUNK_SIZE			100
#define COLSTORE_MAX_CHUNK_SIZE			100000
#define COLSTORE_MIN_COMPRESSION_LEVEL	1
#define COLSTORE_MAX_COMPRESSION_LEVEL	19

#endif							/* COLSTORE_H */
