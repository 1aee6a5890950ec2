# Makefile for colstore (PGXS)

MODULE_big = colstore
EXTENSION = colstore
DATA = $(wildcard sql/colstore--*.sql)

SRCS = $(wildcard src/*.c src/*/*.c)
OBJS = $(SRCS:.c=.o)

PG_CPPFLAGS = -I$(srcdir)/src
SHLIB_LINK = -lzstd -llz4

# Extra warnings are always on; scripts/test.sh (and so CI) adds -Werror via COLSTORE_CFLAGS.
# Assertions come only from a server built with --enable-cassert (Debian's is not).
PG_CFLAGS = -Wall -Wextra -Wno-unused-parameter -Wno-sign-compare -Wno-missing-field-initializers $(COLSTORE_CFLAGS)

TESTS = $(sort $(wildcard test/sql/*.sql))
REGRESS = $(patsubst test/sql/%.sql,%,$(TESTS))
REGRESS_OPTS = --inputdir=test --load-extension=colstore

ISOLATION = $(patsubst test/specs/%.spec,%,$(sort $(wildcard test/specs/*.spec)))
ISOLATION_OPTS = --inputdir=test --load-extension=colstore

# Debian's PGXS is built without --enable-tap-tests: scripts/test.sh runs test/t/*.pl with prove.

PG_CONFIG ?= pg_config
PGXS := $(shell $(PG_CONFIG) --pgxs)
include $(PGXS)


# PGXS tracks no header dependencies here: any header change rebuilds every object.
ALL_HEADERS = $(wildcard src/*.h src/*/*.h)
$(OBJS) $(OBJS:.o=.bc): $(ALL_HEADERS)
