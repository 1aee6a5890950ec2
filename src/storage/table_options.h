/*-------------------------------------------------------------------------
 *
 * table_options.h
 *	  A colstore table's effective storage options, the server defaults
 *	  behind them (colstore.default_*), and the bounds both share.
 *
 * IDENTIFICATION
 *	  src/storage/table_options.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef TABLE_OPTIONS_H
#define TABLE_OPTIONS_H

/* Bounds shared by the colstore.default_* settings and per-table options. */
#define COLSTORE_MIN_ROW_GROUP_SIZE		1000
#define COLSTORE_MAX_ROW_GROUP_SIZE		10000000
#define COLSTORE_MIN_CHUNK_SIZE			100
#define COLSTORE_MAX_CHUNK_SIZE			100000
#define COLSTORE_MIN_COMPRESSION_LEVEL	1
#define COLSTORE_MAX_COMPRESSION_LEVEL	19

typedef struct ColstoreOptions
{
	int			codec;			/* ColstoreCodec */
	int			compression_level;
	int			row_group_size;
	int			chunk_size;
} ColstoreOptions;

/* Defaults for tables without their own options (colstore.default_*). */
extern int	colstore_default_codec;
extern int	colstore_default_compression_level;
extern int	colstore_default_row_group_size;
extern int	colstore_default_chunk_size;

extern void ColstoreGetOptions(Oid relid, ColstoreOptions *opts);
extern void TableOptionsInvalidate(Oid relid);
extern void TableOptionsDefineSettings(void);

#endif							/* TABLE_OPTIONS_H */
