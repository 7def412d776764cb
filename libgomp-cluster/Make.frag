# libgomp-cluster/Make.frag -- the runtime libgomp.so.1 and its cluster module.
#
# lib/libgomp.so.1 is built from libgomp-cluster/*.c: it never links MPI, so a
# plain ./prog loads no MPI library.  lib/ompcluster-mpi.so is built from
# libgomp-cluster/cluster/*.c and libgomp-cluster/dsm/*.c, links MPICH, and is
# dlopen()ed by the runtime only when the program runs on several nodes.

RT_SRCS := $(sort $(wildcard $(srcdir)/libgomp-cluster/*.c))
RT_OBJS := $(patsubst $(srcdir)/%.c,obj/%.o,$(RT_SRCS))
CL_SRCS := $(sort $(wildcard $(srcdir)/libgomp-cluster/cluster/*.c $(srcdir)/libgomp-cluster/dsm/*.c))
CL_OBJS := $(patsubst $(srcdir)/%.c,obj/%.o,$(CL_SRCS))
RT_HDRS := $(wildcard $(srcdir)/libgomp-cluster/*.h $(srcdir)/libgomp-cluster/cluster/*.h $(srcdir)/libgomp-cluster/dsm/*.h)

RT_CFLAGS = -std=gnu11 -O2 -g -fPIC -Wall -Wextra -Wno-unused-parameter \
  -fvisibility=hidden -pthread -I$(srcdir)/libgomp-cluster $(HWLOC_CFLAGS)
RT_LDFLAGS = -shared -Wl,-soname,libgomp.so.1 -Wl,-z,defs \
  -Wl,--version-script=$(srcdir)/libgomp-cluster/libgomp.map -pthread
CL_CFLAGS = $(RT_CFLAGS) $(MPI_CFLAGS)

all-runtime: $(BUILD_LIB)/libgomp.so.1 $(BUILD_LIB)/libgomp.so \
  $(BUILD_LIB)/ompcluster-mpi.so $(BUILD_LIB)/libompcluster-cxx.a $(BUILD_INC)/omp.h

obj/libgomp-cluster/%.o: $(srcdir)/libgomp-cluster/%.c $(RT_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(RT_CFLAGS) -c $< -o $@

obj/libgomp-cluster/cluster/%.o: $(srcdir)/libgomp-cluster/cluster/%.c $(RT_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(CL_CFLAGS) -c $< -o $@

obj/libgomp-cluster/dsm/%.o: $(srcdir)/libgomp-cluster/dsm/%.c $(RT_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(CL_CFLAGS) -c $< -o $@

$(BUILD_LIB)/libgomp.so.1: $(RT_OBJS) $(srcdir)/libgomp-cluster/libgomp.map | $(BUILD_LIB)
	$(CC) $(RT_LDFLAGS) -o $@ $(RT_OBJS) $(HWLOC_LIBS) -ldl -lrt

$(BUILD_LIB)/libgomp.so: | $(BUILD_LIB)
	ln -sf libgomp.so.1 $@

$(BUILD_LIB)/ompcluster-mpi.so: $(CL_OBJS) | $(BUILD_LIB)
	$(CC) -shared -pthread -o $@ $(CL_OBJS) $(MPI_LIBS) -lrt

# C++'s operator new and delete, linked into C++ programs' executables
# (libgomp-cluster/cxx/new.c); -fexceptions: bad_alloc passes through.
obj/libgomp-cluster/cxx/new.o: $(srcdir)/libgomp-cluster/cxx/new.c
	@mkdir -p $(dir $@)
	$(CC) -std=gnu11 -O2 -g -fPIC -fexceptions -Wall -Wextra -c $< -o $@

$(BUILD_LIB)/libompcluster-cxx.a: obj/libgomp-cluster/cxx/new.o | $(BUILD_LIB)
	rm -f $@
	ar rcs $@ $<

$(BUILD_INC)/omp.h: $(srcdir)/libgomp-cluster/omp.h | $(BUILD_INC)
	cp $< $@

install-runtime: all-runtime
	mkdir -p $(DESTDIR)$(libdir) $(DESTDIR)$(includedir) $(DESTDIR)$(libdir)/pkgconfig
	install -m 755 $(BUILD_LIB)/libgomp.so.1 $(DESTDIR)$(libdir)/libgomp.so.1
	ln -sf libgomp.so.1 $(DESTDIR)$(libdir)/libgomp.so
	install -m 755 $(BUILD_LIB)/ompcluster-mpi.so $(DESTDIR)$(libdir)/ompcluster-mpi.so
	install -m 644 $(BUILD_LIB)/libompcluster-cxx.a $(DESTDIR)$(libdir)/libompcluster-cxx.a
	install -m 644 $(BUILD_INC)/omp.h $(DESTDIR)$(includedir)/omp.h
	sed -e 's|@prefix@|$(prefix)|g' -e 's|@libdir@|$(libdir)|g' \
	    -e 's|@includedir@|$(includedir)|g' \
	    $(srcdir)/libgomp-cluster/ompcluster.pc.in > $(DESTDIR)$(libdir)/pkgconfig/ompcluster.pc

clean-runtime:
	rm -rf obj/libgomp-cluster $(BUILD_LIB)/libgomp.so.1 $(BUILD_LIB)/libgomp.so \
	  $(BUILD_LIB)/ompcluster-mpi.so $(BUILD_LIB)/libompcluster-cxx.a $(BUILD_INC)/omp.h

install: install-runtime
clean: clean-runtime
