# make demo's user program (demo/demo.sh): a known call tree with a failing leaf, typed from
# its DWARF, with frame pointers.
$(OUT)/demo/mkdir-demo.o: SAN_CFLAGS :=
$(OUT)/demo/mkdir-demo.o: CFLAGS += -g -O1 -fno-omit-frame-pointer \
	-mno-omit-leaf-frame-pointer -fno-optimize-sibling-calls
$(OUT)/demo/mkdir-demo: SAN_LDFLAGS :=
$(OUT)/demo/mkdir-demo: $(OUT)/demo/mkdir-demo.o
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^

ALL_TARGETS += $(OUT)/demo/mkdir-demo
