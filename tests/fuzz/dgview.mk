# dgview.mk: the plot options' parser and a viewer's view (lib/dgplot.h:
# dgplot_set, dgplot_view, which dgsql --serve's /grid and /at parse their
# parameters with) as a fuzz target (see fuzz.mk and dgview_fuzz.c).
FUZZ_TARGETS       += dgview
FUZZ_dgview_SRCS   := tests/fuzz/dgview_fuzz.c lib/dgplot.c lib/dgiv.c lib/dgctxset.c lib/dghash.c \
                      lib/dgesc.c lib/dgsqlfn.c lib/dghist.c $(DGVTAB_SRCS)
FUZZ_dgview_LIBS   := -lsqlite3 -lm
FUZZ_dgview_DEPS   := lib/dgplot.h
FUZZ_dgview_MAX_LEN := 256
