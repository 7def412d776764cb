# gcc-plugin/Make.frag -- the GCC plugin lib/ompcluster.so, its linker
# fragment lib/ompcluster.ld and lib/libgomp.spec (which makes
# `gcc -fopenmp -fplugin=ompcluster` link the runtime and the fragment;
# see docs/plugin.md).
#
# `make install` puts the fragment into $(pkglibdir), the plugin and a
# libgomp.spec into the overlay $(pkglibdir)/gcc/ (below), and -- unless
# INSTALL_GCC=no -- the plugin into GCC's plugin directory (so that
# -fplugin=ompcluster finds it) and the spec over GCC's libgomp.spec: it
# adds our runtime only when -fplugin=ompcluster is given (the original is
# kept as libgomp.spec.orig-ompcluster, and `make uninstall` puts it back).

PLUGIN_SRCS := $(sort $(wildcard $(srcdir)/gcc-plugin/*.cc))
PLUGIN_HDRS := $(wildcard $(srcdir)/gcc-plugin/*.h)
PLUGIN_CXXFLAGS = -std=gnu++17 -O2 -g -fPIC -fno-rtti -Wall -Wno-unused-parameter \
  -I$(GCC_PLUGIN_DIR)/include
GCC_LIB_DIR = $(dir $(GCC_PLUGIN_DIR))
INSTALL_GCC ?= yes

all-plugin: $(BUILD_LIB)/ompcluster.so $(BUILD_LIB)/ompcluster.ld $(BUILD_LIB)/libgomp.spec

$(BUILD_LIB)/ompcluster.so: $(PLUGIN_SRCS) $(PLUGIN_HDRS) | $(BUILD_LIB)
	$(CXX) $(PLUGIN_CXXFLAGS) -shared -o $@ $(PLUGIN_SRCS)

$(BUILD_LIB)/ompcluster.ld: $(srcdir)/gcc-plugin/ompcluster.ld | $(BUILD_LIB)
	cp $< $@

# In the build tree the spec names the build's lib/:
# `gcc -fopenmp -iplugindir=$(BUILD_LIB) -fplugin=ompcluster -B$(BUILD_LIB)/`
# finds the plugin by name and makes the driver read this spec.
$(BUILD_LIB)/libgomp.spec: $(srcdir)/gcc-plugin/libgomp.spec.in Makefile | $(BUILD_LIB)
	sed -e 's|@LIBDIR@|$(abs_builddir)/$(BUILD_LIB)|g' $< > $@

# The GCC overlay $(pkglibdir)/gcc/: libgomp.spec and plugin/ompcluster.so,
# for `gcc -B$(pkglibdir)/gcc/ -fopenmp -fplugin=ompcluster` (the driver
# takes libgomp.spec and the plugin directory from -B directories first).
GCC_OVERLAY = $(pkglibdir)/gcc
GCC_SPEC = $(DESTDIR)$(GCC_LIB_DIR)libgomp.spec

install-plugin: all-plugin
	mkdir -p $(DESTDIR)$(pkglibdir) $(DESTDIR)$(GCC_OVERLAY)/plugin
	install -m 644 $(BUILD_LIB)/ompcluster.ld $(DESTDIR)$(pkglibdir)/ompcluster.ld
	install -m 755 $(BUILD_LIB)/ompcluster.so $(DESTDIR)$(GCC_OVERLAY)/plugin/ompcluster.so
	sed -e 's|@LIBDIR@|$(pkglibdir)|g' $(srcdir)/gcc-plugin/libgomp.spec.in \
	  > $(DESTDIR)$(GCC_OVERLAY)/libgomp.spec
	if [ "$(INSTALL_GCC)" = yes ]; then \
	  mkdir -p $(DESTDIR)$(GCC_PLUGIN_DIR) && \
	  install -m 755 $(BUILD_LIB)/ompcluster.so $(DESTDIR)$(GCC_PLUGIN_DIR)/ompcluster.so && \
	  if [ -f $(GCC_SPEC) ] && ! grep -q ompcluster $(GCC_SPEC) && \
	     [ ! -f $(GCC_SPEC).orig-ompcluster ]; then \
	    cp -p $(GCC_SPEC) $(GCC_SPEC).orig-ompcluster; fi && \
	  install -m 644 $(DESTDIR)$(GCC_OVERLAY)/libgomp.spec $(GCC_SPEC); \
	fi

# GCC's libgomp.spec comes back from its copy when it is still ours; one
# GCC replaced since (an upgrade) stays.
uninstall-plugin:
	rm -f $(DESTDIR)$(pkglibdir)/ompcluster.ld $(DESTDIR)$(GCC_OVERLAY)/plugin/ompcluster.so \
	  $(DESTDIR)$(GCC_OVERLAY)/libgomp.spec
	-rmdir $(DESTDIR)$(GCC_OVERLAY)/plugin $(DESTDIR)$(GCC_OVERLAY) 2>/dev/null
	if [ "$(INSTALL_GCC)" = yes ]; then \
	  rm -f $(DESTDIR)$(GCC_PLUGIN_DIR)/ompcluster.so; \
	  if [ -f $(GCC_SPEC).orig-ompcluster ]; then \
	    if grep -q ompcluster $(GCC_SPEC); then \
	      mv -f $(GCC_SPEC).orig-ompcluster $(GCC_SPEC); \
	    else rm -f $(GCC_SPEC).orig-ompcluster; fi; \
	  elif [ -f $(GCC_SPEC) ] && grep -q ompcluster $(GCC_SPEC); then \
	    rm -f $(GCC_SPEC); fi; \
	fi

clean-plugin:
	rm -f $(BUILD_LIB)/ompcluster.so $(BUILD_LIB)/ompcluster.ld $(BUILD_LIB)/libgomp.spec

install: install-plugin
uninstall: uninstall-plugin
clean: clean-plugin
