/*-------------------------------------------------------------------------
 *
 * introspection.h
 *	  Helpers shared by colstore's SQL-callable inspection functions.
 *
 * IDENTIFICATION
 *	  src/sqlapi/introspection.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef INTROSPECTION_H
#define INTROSPECTION_H

#include "utils/rel.h"

extern Relation OpenColstoreForReading(Oid relid);

#endif							/* INTROSPECTION_H */
