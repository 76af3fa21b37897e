# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# Man pages: every Documentation/NAME.txt is an asciidoc page in perf's style, built into
# build/man/NAME.1 with asciidoc and the DocBook manpage stylesheet (no network access:
# --nonet, the DTD comes from docbook-xml's catalog).

MAN_TXT := $(wildcard Documentation/*.txt)
MAN_PAGES := $(patsubst Documentation/%.txt,$(OUT)/man/%.1,$(MAN_TXT))
DOCBOOK_MAN_XSL := /usr/share/xml/docbook/stylesheet/docbook-xsl/manpages/docbook.xsl

# asciidoc is a Python module; the system interpreter has it whatever PATH says
$(OUT)/man/%.1: Documentation/%.txt | deps-ok
	$(call msg,MAN,$@)
	$(Q)mkdir -p $(@D)
	$(Q)/usr/bin/python3 -m asciidoc -b docbook -d manpage -a lbrsnap_version=$(LBRSNAP_VER) \
		-a lbrsnap_fields=../$(OUT)/Documentation -o $(OUT)/man/$*.xml $<
	$(Q)xsltproc --nonet --stringparam man.output.quietly 1 \
		--stringparam man.authors.section.enabled 0 \
		--stringparam refentry.meta.get.quietly 1 -o $(OUT)/man/ $(DOCBOOK_MAN_XSL) \
		$(OUT)/man/$*.xml 2> $(OUT)/man/$*.log || { cat $(OUT)/man/$*.log; exit 1; }
	$(Q)test -s $@

LBRSNAP_VER := $(shell sed -n 's/^\#define LBRSNAP_VERSION "\(.*\)"/\1/p' lib/util/version.h)

ALL_TARGETS += $(MAN_PAGES)

.PHONY: install-man
install-man: $(MAN_PAGES)
	$(Q)install -d $(DESTDIR)$(MANDIR)/man1
	$(Q)install -m 0644 $(MAN_PAGES) $(DESTDIR)$(MANDIR)/man1/
INSTALL_TARGETS += install-man
UNINSTALL_FILES += $(patsubst $(OUT)/man/%,$(MANDIR)/man1/%,$(MAN_PAGES))

# record-fields, a build-time program, prints the output field schema (record-fields.h): the
# man pages include its tables, so no field is described twice; t-record-fields compares its
# perf field list with perf-scripts/lbrsnap_perf.py's.

RECORD_FIELDS := $(OUT)/Documentation/record-fields
FIELD_DOCS := $(patsubst %,$(OUT)/Documentation/record-fields-%.txt,perf tracedat json)

# lib/Build.mk (LIBLBRSNAP) is read first
$(RECORD_FIELDS): $(OUT)/Documentation/record-fields.o $(LIBLBRSNAP)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(PKG_LIBS) -lpthread

$(OUT)/Documentation/record-fields-%.txt: $(RECORD_FIELDS)
	$(call msg,GEN,$@)
	$(Q)mkdir -p $(@D) && $(RECORD_FIELDS) doc-$* > $@.tmp && mv $@.tmp $@

# the pages include the tables (asciidoc is passed their folder above)
$(MAN_PAGES): $(FIELD_DOCS)

ALL_TARGETS += $(RECORD_FIELDS) $(FIELD_DOCS)
