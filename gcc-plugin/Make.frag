# gcc-plugin/Make.frag -- the GCC plugin lib/ompcluster.so, its linker
# fragment lib/ompcluster.ld and lib/libgomp.spec (which makes
# `gcc -fopenmp -fplugin=ompcluster` link the runtime and the fragment;
# see docs/plugin.md).
#
# `make install` puts the plugin into GCC's plugin directory (so that
# -fplugin=ompcluster finds it), the fragment and a libgomp.spec into
# $(libdir), and -- unless INSTALL_GCC_SPEC=no -- GCC's libgomp.spec is
# replaced by one that adds our runtime only when -fplugin=ompcluster is
# given (the original is kept as libgomp.spec.orig-ompcluster).

PLUGIN_SRCS := $(sort $(wildcard $(srcdir)/gcc-plugin/*.cc))
PLUGIN_HDRS := $(wildcard $(srcdir)/gcc-plugin/*.h)
PLUGIN_CXXFLAGS = -std=gnu++17 -O2 -g -fPIC -fno-rtti -Wall -Wno-unused-parameter \
  -I$(GCC_PLUGIN_DIR)/include
GCC_LIB_DIR = $(dir $(GCC_PLUGIN_DIR))
INSTALL_GCC_SPEC ?= yes

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

install-plugin: all-plugin
	mkdir -p $(DESTDIR)$(GCC_PLUGIN_DIR) $(DESTDIR)$(libdir)
	install -m 755 $(BUILD_LIB)/ompcluster.so $(DESTDIR)$(GCC_PLUGIN_DIR)/ompcluster.so
	install -m 644 $(BUILD_LIB)/ompcluster.ld $(DESTDIR)$(libdir)/ompcluster.ld
	sed -e 's|@LIBDIR@|$(libdir)|g' $(srcdir)/gcc-plugin/libgomp.spec.in \
	  > $(DESTDIR)$(libdir)/libgomp.spec
	if [ "$(INSTALL_GCC_SPEC)" = yes ]; then \
	  spec=$(DESTDIR)$(GCC_LIB_DIR)libgomp.spec; \
	  if [ -f $$spec ] && ! grep -q ompcluster $$spec && [ ! -f $$spec.orig-ompcluster ]; then \
	    cp $$spec $$spec.orig-ompcluster; fi; \
	  install -m 644 $(DESTDIR)$(libdir)/libgomp.spec $$spec; \
	fi

clean-plugin:
	rm -f $(BUILD_LIB)/ompcluster.so $(BUILD_LIB)/ompcluster.ld $(BUILD_LIB)/libgomp.spec

install: install-plugin
clean: clean-plugin
