/*-------------------------------------------------------------------------
 *
 * options_store.h
 *	  Reading and writing rows of colstore.options (see options_store.c).
 *
 * IDENTIFICATION
 *	  src/storage/options_store.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef OPTIONS_STORE_H
#define OPTIONS_STORE_H

/* A row of colstore.options; a field of -1 is NULL (the server default). */
typedef struct OptionsRow
{
	int			codec;			/* ColstoreCodec */
	int			compression_level;
	int			row_group_size;
	int			chunk_size;
} OptionsRow;

extern bool OptionsRowRead(Oid relid, OptionsRow *row);
extern void OptionsRowWrite(Oid relid, const OptionsRow *row);
extern void OptionsRowForget(Oid relid);
extern void OptionsRowForgetStale(Oid relid);

#endif							/* OPTIONS_STORE_H */
