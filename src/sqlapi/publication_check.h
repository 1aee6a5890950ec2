/*-------------------------------------------------------------------------
 *
 * publication_check.h
 *	  Refusing to publish colstore tables for logical replication.
 *
 * IDENTIFICATION
 *	  src/sqlapi/publication_check.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef PUBLICATION_CHECK_H
#define PUBLICATION_CHECK_H

#include "nodes/nodes.h"

extern void PublicationRefuseColstore(Node *stmt);

#endif							/* PUBLICATION_CHECK_H */
