# dgfilter.mk: the filter lists' parser (lib/dgfilter.h: dgfilter_parse,
# and the completion's dgfilter_names_sql) and .cache's geometry
# (lib/dgcache.h) as a fuzz target (see fuzz.mk
# and dgfilter_fuzz.c): the text dgsql's --events/--ranges, .filter and
# the viewer's boxes (dgsql --serve's events=, ranges=) give it.
FUZZ_TARGETS          += dgfilter
FUZZ_dgfilter_SRCS    := tests/fuzz/dgfilter_fuzz.c lib/dgfilter.c lib/dgsqlfn.c lib/dgstacks.c \
                         lib/dgesc.c lib/dghist.c lib/dgcache.c
FUZZ_dgfilter_LIBS    := -lsqlite3 -lm
FUZZ_dgfilter_DEPS    := lib/dgfilter.h lib/dgcache.h
FUZZ_dgfilter_MAX_LEN := 256
