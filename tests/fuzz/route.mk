# route.mk: the engine router's fuzz target (see fuzz.mk and route_fuzz.c).
# Each input is a statement's text.
FUZZ_TARGETS       += route
FUZZ_route_SRCS    := tests/fuzz/route_fuzz.c dgsql/route.c
FUZZ_route_CFLAGS  := -Idgsql
FUZZ_route_LIBS    := -lsqlite3
FUZZ_route_DEPS    := dgsql/route.h
FUZZ_route_MAX_LEN := 256
