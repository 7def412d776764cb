# module.tcl -- reads a module file as Environment Modules and Lmod do (a
# Tcl script calling their commands) with those commands defined to print
# what they would do: "setenv VAR VALUE", "prepend-path VAR VALUE".
#   tclsh module.tcl MODULEFILE
proc setenv {var value} { puts "setenv $var $value" }
proc prepend-path {var value} { puts "prepend-path $var $value" }
proc module-whatis {text} {}
proc conflict {args} {}
source [lindex $argv 0]
if {[info procs ModulesHelp] eq ""} { error "no ModulesHelp" }
