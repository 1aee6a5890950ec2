/*-------------------------------------------------------------------------
 *
 * table_order.h
 *	  Is a column of a whole table stored in ascending order?
 *	  (table_order.c)
 *
 * IDENTIFICATION
 *	  src/mvcc/table_order.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef TABLE_ORDER_H
#define TABLE_ORDER_H

#include "utils/rel.h"

extern bool ColstoreColumnStoredInOrder(Relation rel, int attno);
extern void ColumnOrderForget(Oid relid);

#endif							/* TABLE_ORDER_H */
