# gcc-plugin/Make.frag -- the GCC plugin lib/ompcluster.so and its linker fragment.

PLUGIN_SRCS := $(sort $(wildcard $(srcdir)/gcc-plugin/*.cc))
PLUGIN_HDRS := $(wildcard $(srcdir)/gcc-plugin/*.h)
PLUGIN_CXXFLAGS = -std=gnu++17 -O2 -g -fPIC -fno-rtti -Wall -Wno-unused-parameter \
  -I$(GCC_PLUGIN_DIR)/include

all-plugin: $(BUILD_LIB)/ompcluster.so $(BUILD_LIB)/ompcluster.ld

$(BUILD_LIB)/ompcluster.so: $(PLUGIN_SRCS) $(PLUGIN_HDRS) | $(BUILD_LIB)
	$(CXX) $(PLUGIN_CXXFLAGS) -shared -o $@ $(PLUGIN_SRCS)

$(BUILD_LIB)/ompcluster.ld: $(srcdir)/gcc-plugin/ompcluster.ld | $(BUILD_LIB)
	cp $< $@

install-plugin: all-plugin
	mkdir -p $(DESTDIR)$(GCC_PLUGIN_DIR) $(DESTDIR)$(libdir)
	install -m 755 $(BUILD_LIB)/ompcluster.so $(DESTDIR)$(GCC_PLUGIN_DIR)/ompcluster.so
	install -m 644 $(BUILD_LIB)/ompcluster.ld $(DESTDIR)$(libdir)/ompcluster.ld

clean-plugin:
	rm -f $(BUILD_LIB)/ompcluster.so $(BUILD_LIB)/ompcluster.ld

install: install-plugin
clean: clean-plugin
