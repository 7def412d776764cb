# scripts/Make.frag -- the user-facing wrappers bin/ompcc and bin/ompcrun.

all-wrappers: $(BUILD_BIN)/ompcc $(BUILD_BIN)/ompcrun

$(BUILD_BIN)/%: $(srcdir)/scripts/%.in Makefile | $(BUILD_BIN)
	sed -e 's|@LIBDIR@|$(abs_builddir)/$(BUILD_LIB)|g' \
	    -e 's|@INCDIR@|$(abs_builddir)/$(BUILD_INC)|g' \
	    -e 's|@CC@|$(CC)|g' -e 's|@FC@|$(FC)|g' \
	    -e 's|@MPIEXEC@|$(MPIEXEC)|g' $< > $@
	chmod +x $@

install-wrappers:
	mkdir -p $(DESTDIR)$(bindir)
	for w in ompcc ompcrun; do \
	  sed -e 's|@LIBDIR@|$(libdir)|g' -e 's|@INCDIR@|$(includedir)|g' \
	      -e 's|@CC@|$(CC)|g' -e 's|@FC@|$(FC)|g' \
	      -e 's|@MPIEXEC@|$(MPIEXEC)|g' $(srcdir)/scripts/$$w.in > $(DESTDIR)$(bindir)/$$w; \
	  chmod +x $(DESTDIR)$(bindir)/$$w; done

clean-wrappers:
	rm -f $(BUILD_BIN)/ompcc $(BUILD_BIN)/ompcrun

install: install-wrappers
clean: clean-wrappers
