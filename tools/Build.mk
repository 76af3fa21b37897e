# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# Build-time programs. record-fields prints the output field schema (record-fields.h): the
# man pages include its tables, so no field is described twice; t-record-fields compares its
# perf field list with perf-scripts/lbrsnap_perf.py's.

RECORD_FIELDS := $(OUT)/tools/record-fields
FIELD_DOCS := $(patsubst %,$(OUT)/Documentation/record-fields-%.txt,perf tracedat json)

# lib/Build.mk (LIBLBRSNAP) is read first
$(RECORD_FIELDS): $(OUT)/tools/record-fields.o $(LIBLBRSNAP)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(PKG_LIBS) -lpthread

$(OUT)/Documentation/record-fields-%.txt: $(RECORD_FIELDS)
	$(call msg,GEN,$@)
	$(Q)mkdir -p $(@D) && $(RECORD_FIELDS) doc-$* > $@.tmp && mv $@.tmp $@

# the pages include the tables (Documentation/Build.mk passes their folder)
$(MAN_PAGES): $(FIELD_DOCS)

ALL_TARGETS += $(RECORD_FIELDS) $(FIELD_DOCS)
