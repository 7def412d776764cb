# libgomp-cluster/Make.frag -- the runtime libgomp.so.1 and its cluster module.
#
# lib/libgomp.so.1 is built from libgomp-cluster/*.c: it never links MPI, so a
# plain ./prog loads no MPI library.  lib/ompcluster-mpi.so is built from
# libgomp-cluster/cluster/*.c, dsm/*.c and transport/*.c, links MPICH, and is
# dlopen()ed by the runtime only when the program runs on several nodes.

RT_SRCS := $(sort $(wildcard $(srcdir)/libgomp-cluster/*.c))
RT_OBJS := $(patsubst $(srcdir)/%.c,obj/%.o,$(RT_SRCS))
CL_SRCS := $(sort $(wildcard $(srcdir)/libgomp-cluster/cluster/*.c $(srcdir)/libgomp-cluster/dsm/*.c \
  $(srcdir)/libgomp-cluster/transport/*.c))
CL_OBJS := $(patsubst $(srcdir)/%.c,obj/%.o,$(CL_SRCS))
RT_HDRS := $(wildcard $(srcdir)/libgomp-cluster/*.h $(srcdir)/libgomp-cluster/cluster/*.h \
  $(srcdir)/libgomp-cluster/dsm/*.h $(srcdir)/libgomp-cluster/transport/*.h \
  $(srcdir)/libgomp-cluster/config/linux/*.h)

RT_CFLAGS = -std=gnu11 -O2 -g -fPIC -Wall -Wextra -Wno-unused-parameter \
  -fvisibility=hidden -pthread -I$(srcdir)/libgomp-cluster $(HWLOC_CFLAGS)
RT_LDFLAGS = -shared -Wl,-soname,libgomp.so.1 -Wl,-z,defs \
  -Wl,--version-script=$(srcdir)/libgomp-cluster/libgomp.map -pthread
CL_CFLAGS = $(RT_CFLAGS) $(MPI_CFLAGS)

# The transport's loopback backend (one node, no MPI) is not part of the
# module: the DSM's MPI-less unit test links it (testsuite/ompcluster.dsm).
CL_LOOPBACK_OBJ := obj/libgomp-cluster/transport/loopback/loopback.o

all-runtime: $(BUILD_LIB)/libgomp.so.1 $(BUILD_LIB)/libgomp.so \
  $(BUILD_LIB)/ompcluster-mpi.so $(BUILD_LIB)/libompcluster-cxx.a $(BUILD_INC)/omp.h \
  $(CL_LOOPBACK_OBJ)

obj/libgomp-cluster/%.o: $(srcdir)/libgomp-cluster/%.c $(RT_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(RT_CFLAGS) -c $< -o $@

obj/libgomp-cluster/cluster/%.o: $(srcdir)/libgomp-cluster/cluster/%.c $(RT_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(CL_CFLAGS) -c $< -o $@

obj/libgomp-cluster/dsm/%.o: $(srcdir)/libgomp-cluster/dsm/%.c $(RT_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(CL_CFLAGS) -c $< -o $@

obj/libgomp-cluster/transport/%.o: $(srcdir)/libgomp-cluster/transport/%.c $(RT_HDRS)
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

# Installed: the runtime, the cluster module and libompcluster-cxx.a in
# $(pkglibdir), omp.h in $(pkgincludedir), ompcluster.pc for pkg-config and
# a module file (Environment Modules and Lmod) $(modulefilesdir)/ompcluster.
INSTALL_SUBST = sed -e 's|@prefix@|$(prefix)|g' -e 's|@bindir@|$(bindir)|g' \
  -e 's|@pkglibdir@|$(pkglibdir)|g' -e 's|@pkgincludedir@|$(pkgincludedir)|g' \
  -e 's|@libdir@|$(libdir)|g' -e 's|@VERSION@|0.1|g'

install-runtime: all-runtime
	mkdir -p $(DESTDIR)$(pkglibdir) $(DESTDIR)$(pkgincludedir) \
	  $(DESTDIR)$(libdir)/pkgconfig $(DESTDIR)$(modulefilesdir)
	install -m 755 $(BUILD_LIB)/libgomp.so.1 $(DESTDIR)$(pkglibdir)/libgomp.so.1
	ln -sf libgomp.so.1 $(DESTDIR)$(pkglibdir)/libgomp.so
	install -m 755 $(BUILD_LIB)/ompcluster-mpi.so $(DESTDIR)$(pkglibdir)/ompcluster-mpi.so
	install -m 644 $(BUILD_LIB)/libompcluster-cxx.a $(DESTDIR)$(pkglibdir)/libompcluster-cxx.a
	install -m 644 $(BUILD_INC)/omp.h $(DESTDIR)$(pkgincludedir)/omp.h
	$(INSTALL_SUBST) $(srcdir)/libgomp-cluster/ompcluster.pc.in > $(DESTDIR)$(libdir)/pkgconfig/ompcluster.pc
	$(INSTALL_SUBST) $(srcdir)/scripts/ompcluster.module.in > $(DESTDIR)$(modulefilesdir)/ompcluster

uninstall-runtime:
	rm -f $(addprefix $(DESTDIR)$(pkglibdir)/,libgomp.so.1 libgomp.so ompcluster-mpi.so libompcluster-cxx.a) \
	  $(DESTDIR)$(pkgincludedir)/omp.h $(DESTDIR)$(libdir)/pkgconfig/ompcluster.pc \
	  $(DESTDIR)$(modulefilesdir)/ompcluster
	-rmdir $(DESTDIR)$(pkglibdir) $(DESTDIR)$(pkgincludedir) 2>/dev/null

clean-runtime:
	rm -rf obj/libgomp-cluster $(BUILD_LIB)/libgomp.so.1 $(BUILD_LIB)/libgomp.so \
	  $(BUILD_LIB)/ompcluster-mpi.so $(BUILD_LIB)/libompcluster-cxx.a $(BUILD_INC)/omp.h

install: install-runtime
uninstall: uninstall-runtime
clean: clean-runtime
