# scripts/Make.frag -- the user-facing wrappers: bin/ompcc, bin/ompcxx,
# bin/ompf90 (and its synonym bin/ompfort), all made from scripts/ompcc.in
# with the language they stand for, and bin/ompcrun.

WRAPPERS = ompcc ompcxx ompf90 ompfort ompcrun
wrapper_kind = $(if $(filter ompcxx,$(1)),cxx,$(if $(filter ompf90 ompfort,$(1)),f90,c))
wrapper_src = $(srcdir)/scripts/$(if $(filter ompcrun,$(1)),ompcrun,ompcc).in

# $(call wrapper_sed,LIBDIR,INCDIR,NAME,PLUGIN): the substitutions of a wrapper.
wrapper_sed = sed -e 's|@LIBDIR@|$(1)|g' -e 's|@INCDIR@|$(2)|g' -e 's|@PLUGIN@|$(4)|g' \
  -e 's|@NAME@|$(3)|g' -e 's|@KIND@|$(call wrapper_kind,$(3))|g' \
  -e 's|@CC@|$(CC)|g' -e 's|@FC@|$(FC)|g' -e 's|@MPIEXEC@|$(MPIEXEC)|g'

all-wrappers: $(addprefix $(BUILD_BIN)/,$(WRAPPERS))

$(BUILD_BIN)/ompcrun: $(srcdir)/scripts/ompcrun.in Makefile | $(BUILD_BIN)
	$(call wrapper_sed,$(abs_builddir)/$(BUILD_LIB),$(abs_builddir)/$(BUILD_INC),ompcrun,) $< > $@
	chmod +x $@

$(BUILD_BIN)/omp%: $(srcdir)/scripts/ompcc.in Makefile | $(BUILD_BIN)
	$(call wrapper_sed,$(abs_builddir)/$(BUILD_LIB),$(abs_builddir)/$(BUILD_INC),omp$*,$(abs_builddir)/$(BUILD_LIB)/ompcluster.so) $< > $@
	chmod +x $@

install-wrappers:
	mkdir -p $(DESTDIR)$(bindir)
	$(foreach w,$(WRAPPERS),$(call wrapper_sed,$(pkglibdir),$(pkgincludedir),$(w),$(pkglibdir)/gcc/plugin/ompcluster.so) \
	  $(call wrapper_src,$(w)) > $(DESTDIR)$(bindir)/$(w) && \
	  chmod 755 $(DESTDIR)$(bindir)/$(w) &&) true

uninstall-wrappers:
	rm -f $(addprefix $(DESTDIR)$(bindir)/,$(WRAPPERS))

clean-wrappers:
	rm -f $(addprefix $(BUILD_BIN)/,$(WRAPPERS))

install: install-wrappers
uninstall: uninstall-wrappers
clean: clean-wrappers
