/* ompcluster.cc -- the ompcluster GCC plugin.

   A program compiled with -fopenmp -fplugin=ompcluster and linked with the
   ompcluster runtime runs across the nodes of a cluster.  The runtime sees
   every OpenMP construct through GCC's libgomp ABI; what it cannot see is
   rewritten here, in every function and variable of the translation unit:

   1. Globals.  Every variable with static storage that the unit defines and
      that threads may write (file scope, static, static locals, compound
      literals, the lock behind critical(NAME), Fortran module variables and
      COMMON) moves into the shared segment, which the linker fragment
      ompcluster.ld gathers into one page-aligned region:
	int counts[64];          ->  section .bss.__ompc_shared (NOBITS)
	double scale = 2.0;      ->  section .data.__ompc_shared
	double grid[512][512];   ->  section .bss.__ompc_shared, aligned (4096)
	static _Thread_local int t;  const int k = 1;  "strings"  -> untouched
      A common symbol (critical(NAME)'s .gomp_critical_user_NAME, -fcommon,
      Fortran COMMON) cannot sit in a named section: it becomes weak, so the
      translation units that share it still link to one copy.  Large data
      under -mcmodel=medium keeps GCC's own section, which the fragment
      gathers into the same region (see ompc_large_data_p):
	double big[1L << 30];    ->  section .lbss (as before; shared)
   2. main.  The user's main is renamed (its symbol only):
	int main (int argc, char **argv)  ->  __ompc_user_main
      and the runtime's main (libgomp-cluster/start.c) starts it.
   3. Heap.  Calls to, and addresses of, the C allocation functions:
	p = malloc (n);  q = strdup (s);  f = &free;
	->  p = ompc_malloc (n);  q = ompc_strdup (s);  f = &ompc_free;
      (calloc, realloc, reallocarray, free, posix_memalign, aligned_alloc,
      memalign, valloc, strdup, strndup and malloc_usable_size likewise),
      also in static initialisers.
   4. Atomics (atomics.cc) and fences.  Every __atomic_* / __sync_* builtin:
	__atomic_fetch_add_4 (&x, 1, 0)  ->  ompc_atomic_fetch_add_4 (&x, 1, 0)
	__sync_fetch_and_add_4 (&x, 1)  ->  ompc_atomic_fetch_add_4 (&x, 1, 5)
	__sync_lock_release_1 (&f)  ->  ompc_atomic_store_1 (&f, 0, 3)
	__sync_val_compare_and_swap_8 (p, o, n)
	  ->  ompc_sync_val_compare_and_swap_8 (p, o, n)
	__sync_synchronize () (omp flush), __atomic_thread_fence (MO)
	  ->  ompc_flush ()
      and the internal call GCC 12's OpenMP expansion makes for CAS loops:
	c = .ATOMIC_COMPARE_EXCHANGE (p, e, d, 4, 0, 0);
	->  t = e;  ok = ompc_atomic_compare_exchange_4 (p, &t, d, 0, 0, 0);
	    c = COMPLEX_EXPR <t, (int) ok>;
      Lock-free queries, signal fences and __atomic_feraiseexcept stay.
   5. Threadprivate addresses.  copyin of an aggregate (array, struct,
      COMMON block, Fortran descriptor) and copyprivate hand the team the
      address of the master's (single thread's) thread-local copy, which
      other nodes cannot read: a copy's address in the shared heap goes
      instead:
	.omp_data_o.3.t = &t;  GOMP_parallel (fn, &.omp_data_o.3, 0, 0);
	->  c = ompc_tls_share (&t, sizeof t);  .omp_data_o.3.t = c;
	    GOMP_parallel (fn, &.omp_data_o.3, 0, 0);  ompc_tls_unshare (&t, c);
      (with one node c is &t: no copy).
   6. libgfortran's array results.  An array that a libgfortran routine
      allocates (MATMUL, RESHAPE, PACK ... into a descriptor whose data is
      NULL) comes from libc's malloc; the runtime moves it into the shared
      heap after the call:
	_gfortran_matmul_r8 (&D, ...);
	->  d = D.data;  _gfortran_matmul_r8 (&D, ...);
	    ompc_gfortran_result (d, &D.data);
   7. Fortran unformatted I/O.  libgfortran passes large arrays and strings
      straight to read(2)/write(2), which fail on a shared page this node
      holds invalid; the runtime touches the data's pages first:
	_gfortran_transfer_array (&dt, &a, 8, 0);
	->  ompc_gfortran_io_array (&a, 1);  _gfortran_transfer_array (...);
   8. Fortran units.  Units are per node; before a READ or WRITE the runtime
      checks that a node other than rank 0 has the unit connected, and
      ends the job with a message if not (libgfortran would silently
      connect a new file fort.N there):
	_gfortran_st_write (&dt);
	->  ompc_gfortran_unit (&dt);  _gfortran_st_write (&dt);

   Where the passes sit (docs/plugin.md): globals and main at the
   start of the IPA passes, over the whole varpool and call graph; the
   GIMPLE rewrites in a pass placed before the first "ssa" pass, which sees
   main and every outlined *._omp_fn.N at every optimisation level, and runs
   before GCC fuses atomics into .ATOMIC_BIT_TEST_AND_SET and the like.
   Loops GCC parallelizes itself (-ftree-parallelize-loops) are outlined
   into FN._loopfn.N, and their reductions' merges made atomics, only in
   the loop optimizer, long after that pass: a second GIMPLE pass at the
   start of all_passes, where those new functions begin, rewrites their
   atomics (rewrite 4, in SSA form; see ompc_rewrite_loopfn).

   Options (-fplugin-arg-ompcluster-NAME):
     verbose      report per translation unit what moved and was rewritten
     no-warnings  leave out the warnings below
     inline-atomics (the default)
		  keep the native atomic for one node behind a test of the
		  runtime's cluster pointer (see ompc_guard_atomic)
     no-inline-atomics
		  make every atomic a runtime call, as GCC's own lock-prefixed
		  instructions never appear in the OpenMP code
     help         list the options
   Any other option is an error.

   For gfortran the plugin also turns -fbacktrace off: the main program
   would install libgfortran's SIGSEGV handler over the DSM's.

   Warnings (with file and line) for what stays unsafe across nodes: inline
   assembly in a function with OpenMP constructs, a variable kept out of the
   shared segment by a user section attribute, and target regions.  */

#include "ompcluster.h"
/* gcc_version, for the check in plugin_init (defined there, once).  */
#include "plugin-version.h"

int plugin_is_GPL_compatible;

#define OMPC_DATA_SECTION ".data.__ompc_shared"
#define OMPC_BSS_SECTION ".bss.__ompc_shared"
/* A variable of at least OMPC_ALIGN_FROM bytes moved there is aligned to
   OMPC_BLOCK_ALIGN, the DSM's default block (and the page): a large array
   that nodes write in parts (rows of 4096 bytes, halves of a plane) then
   shares no block between two nodes' parts or with another variable.  NPB
   FT's arrays of 4 KiB rows, 48 bytes off a page, had every row across
   two blocks: a node reading or writing its rows moved twice as many
   blocks, and the two nodes' rows met in a block at every boundary.  */
#define OMPC_ALIGN_FROM 16384
#define OMPC_BLOCK_ALIGN 4096
#define OMPC_USER_MAIN "__ompc_user_main"

static const char ompc_help[] =
  "ompcluster plugin options (-fplugin-arg-ompcluster-NAME):\n"
  "  verbose   report per translation unit the variables moved to the\n"
  "            shared segment (and their bytes), the renaming of main, and\n"
  "            the heap calls and atomics rewritten\n"
  "  no-warnings\n"
  "            do not warn about what stays unsafe across nodes (for test\n"
  "            suites that compare the compiler's output exactly)\n"
  "  inline-atomics\n"
  "            (the default) keep each 1- to 8-byte atomic's native\n"
  "            instruction for one node behind a test, calling the runtime\n"
  "            only with several nodes\n"
  "  no-inline-atomics\n"
  "            make every atomic a call into the runtime (no lock-prefixed\n"
  "            instruction is left in the code; slower at one node)\n"
  "  help      print this list\n";

static struct plugin_info ompc_plugin_info = { "0.1", ompc_help };

static bool ompc_verbose;
static bool ompc_warnings = true;
bool ompc_inline_atomics = true;
/* The unit is Fortran (lang_hooks.name, read at start-up: GCC resets it
   before the passes run).  */
static bool ompc_fortran;

struct ompc_unit_stats ompc_stats;

/* The allocation functions replaced by the runtime's; names from the
   contract in docs/INTERNALS.md.  glibc's old __strdup aliases count too.  */
static const struct
{
  const char *libc, *ompc;
} ompc_heap_funcs[] = {
  { "malloc", "ompc_malloc" },
  { "calloc", "ompc_calloc" },
  { "realloc", "ompc_realloc" },
  { "reallocarray", "ompc_reallocarray" },
  { "free", "ompc_free" },
  { "posix_memalign", "ompc_posix_memalign" },
  { "aligned_alloc", "ompc_aligned_alloc" },
  { "memalign", "ompc_memalign" },
  { "valloc", "ompc_valloc" },
  { "strdup", "ompc_strdup" },
  { "__strdup", "ompc_strdup" },
  { "strndup", "ompc_strndup" },
  { "__strndup", "ompc_strndup" },
  { "malloc_usable_size", "ompc_malloc_usable_size" },
};

/* The external function NAME of TYPE, declared once per translation unit:
   found again through the symbol table, so no tree outlives the garbage
   collector in a static of ours.  */
tree
ompc_extern_fn (const char *name, tree type)
{
  tree id = get_identifier (name);
  if (symtab_node *node = symtab_node::get_for_asmname (id))
    if (TREE_CODE (node->decl) == FUNCTION_DECL)
      return node->decl;
  tree decl = build_fn_decl (name, type);
  /* Called through the GOT, not the PLT: one jump less on every atomic.  */
  DECL_ATTRIBUTES (decl) = tree_cons (get_identifier ("noplt"), NULL_TREE,
				      NULL_TREE);
  DECL_ASSEMBLER_NAME (decl);
  cgraph_node::get_create (decl);
  return decl;
}

/* The runtime's replacement for the function DECL if it is one of the heap
   functions, or NULL.  A program that defines its own malloc keeps it.  */
static tree
ompc_heap_replacement (tree decl)
{
  if (TREE_CODE (decl) != FUNCTION_DECL || !TREE_PUBLIC (decl))
    return NULL_TREE;
  const char *name = IDENTIFIER_POINTER (DECL_ASSEMBLER_NAME (decl));
  for (const auto &f : ompc_heap_funcs)
    if (strcmp (name, f.libc) == 0)
      {
	cgraph_node *node = cgraph_node::get (decl);
	if (node && node->definition)
	  return NULL_TREE;
	tree repl = ompc_extern_fn (f.ompc, TREE_TYPE (decl));
	DECL_IS_MALLOC (repl) = DECL_IS_MALLOC (decl);
	return repl;
      }
  return NULL_TREE;
}

/* walk_tree callback: replaces the address of a heap function.  DATA
   points at a counter of replacements.  */
static tree
ompc_replace_heap_addr (tree *tp, int *walk_subtrees, void *data)
{
  if (TREE_CODE (*tp) == ADDR_EXPR)
    {
      *walk_subtrees = 0;
      if (tree repl = ompc_heap_replacement (TREE_OPERAND (*tp, 0)))
	{
	  *tp = build1 (ADDR_EXPR, TREE_TYPE (*tp), repl);
	  ++*(unsigned *) data;
	}
    }
  else if (TYPE_P (*tp) || DECL_P (*tp))
    *walk_subtrees = 0;
  return NULL_TREE;
}

/* Under -mcmodel=medium GCC addresses a variable with 32-bit offsets
   unless it is large data, which it decides by the variable's section: a
   named one must be exactly .ldata or .lbss (ix86_in_large_data_p).  A
   large variable moved into the plugin's sections would then overflow its
   relocations: it stays in GCC's .ldata/.lbss, which the linker fragment
   ompcluster.ld gathers into the shared region as a whole.  */
static bool
ompc_large_data_p (tree decl)
{
  if (global_options.x_ix86_cmodel != CM_MEDIUM
      && global_options.x_ix86_cmodel != CM_MEDIUM_PIC)
    return false;
  HOST_WIDE_INT size = int_size_in_bytes (TREE_TYPE (decl));
  return size <= 0 || size > global_options.x_ix86_section_threshold;
}

/* Globals: moves every eligible variable of the unit into the shared
   sections, and rewrites heap function addresses in static initialisers.  */
static void
ompc_move_globals (void)
{
  varpool_node *vnode;
  FOR_EACH_DEFINED_VARIABLE (vnode)
    {
      tree decl = vnode->decl;
      if (DECL_INITIAL (decl) && DECL_INITIAL (decl) != error_mark_node)
	{
	  unsigned n = 0;
	  walk_tree (&DECL_INITIAL (decl), ompc_replace_heap_addr, &n, NULL);
	  if (n)
	    {
	      vnode->remove_all_references ();
	      record_references_in_initializer (decl, false);
	      ompc_stats.heap_addrs += n;
	    }
	}

      if (vnode->alias || DECL_EXTERNAL (decl) || !TREE_STATIC (decl)
	  || DECL_THREAD_LOCAL_P (decl) || TREE_READONLY (decl)
	  || DECL_HARD_REGISTER (decl) || DECL_IN_CONSTANT_POOL (decl)
	  || DECL_IN_TEXT_SECTION (decl))
	continue;
      if (const char *sec = DECL_SECTION_NAME (decl))
	{
	  /* .ldata and .lbss are shared as a whole (ompcluster.ld).  */
	  if (strcmp (sec, OMPC_DATA_SECTION) && strcmp (sec, OMPC_BSS_SECTION)
	      && strcmp (sec, ".ldata") && strcmp (sec, ".lbss"))
	    {
	      if (ompc_warnings)
		warning_at (DECL_SOURCE_LOCATION (decl), 0,
			    "ompcluster: %qD stays in section %qs, outside "
			    "the shared segment: threads on other nodes do "
			    "not see its changes", decl, sec);
	      ompc_stats.kept++;
	    }
	  continue;
	}
      if (DECL_COMMON (decl))
	{
	  /* critical(NAME), -fcommon, Fortran COMMON: one copy per program
	     through a weak definition instead of a common symbol.  */
	  DECL_COMMON (decl) = 0;
	  DECL_WEAK (decl) = 1;
	  ompc_stats.weak++;
	}
      /* The visibility pass drops the section of a COMDAT variable that
	 is not public (a C file-scope compound literal).  */
      if (DECL_COMDAT (decl) && !TREE_PUBLIC (decl))
	{
	  DECL_COMDAT (decl) = 0;
	  vnode->set_comdat_group (NULL_TREE);
	}
      bool zero = bss_initializer_p (decl, true);
      const char *to = zero ? OMPC_BSS_SECTION : OMPC_DATA_SECTION;
      if (ompc_large_data_p (decl))
	to = zero ? ".lbss" : ".ldata";
      else
	set_decl_section_name (decl, to);

      unsigned HOST_WIDE_INT size = 0;
      if (DECL_SIZE_UNIT (decl) && tree_fits_uhwi_p (DECL_SIZE_UNIT (decl)))
	size = tree_to_uhwi (DECL_SIZE_UNIT (decl));
      if (size >= OMPC_ALIGN_FROM
	  && DECL_ALIGN_UNIT (decl) < OMPC_BLOCK_ALIGN)
	{
	  /* A large array starts on a block of the DSM (4096 bytes by
	     default): rows of a page's size then fill whole blocks, and
	     a part that a node writes shares no block with its
	     neighbour's or another variable's.  */
	  SET_DECL_ALIGN (decl, OMPC_BLOCK_ALIGN * BITS_PER_UNIT);
	  DECL_USER_ALIGN (decl) = 1;
	  ompc_stats.aligned++;
	}
      ompc_stats.vars++;
      (zero ? ompc_stats.zero_bytes : ompc_stats.data_bytes) += size;
      if (ompc_verbose)
	fprintf (stderr, "%s: ompcluster: %s%s (" HOST_WIDE_INT_PRINT_UNSIGNED
		 " bytes%s) -> %s\n", main_input_filename,
		 DECL_NAME (decl) ? "" : "<anonymous> ",
		 DECL_NAME (decl) ? IDENTIFIER_POINTER (DECL_NAME (decl)) : "",
		 size, DECL_WEAK (decl) ? ", weak" : "",
		 to);
    }
}

/* main: renames the symbol of the user's main (DECL_NAME stays main, so
   GCC keeps treating it as main).  */
static void
ompc_rename_main (void)
{
  cgraph_node *node;
  FOR_EACH_FUNCTION (node)
    {
      tree decl = node->decl;
      if (DECL_NAME (decl) && MAIN_NAME_P (DECL_NAME (decl))
	  && TREE_PUBLIC (decl) && DECL_FILE_SCOPE_P (decl)
	  && id_equal (DECL_ASSEMBLER_NAME (decl), "main"))
	{
	  symtab->change_decl_assembler_name (decl,
					      get_identifier (OMPC_USER_MAIN));
	  /* gfortran made the symbol's RTL already: make it again.  */
	  if (DECL_RTL_SET_P (decl))
	    SET_DECL_RTL (decl, NULL_RTX);
	  if (node->definition)
	    ompc_stats.main_renamed = true;
	}
    }
}

/* Whether the unit is a whole program built without OpenMP (-fno-openmp,
   as some test suites do): it defines main, so nothing links the runtime
   and the plugin leaves the unit alone.  A unit without main is rewritten
   even without -fopenmp: it may be part of an OpenMP program.  */
bool ompc_off;

static bool
ompc_defines_main (void)
{
  cgraph_node *node;
  FOR_EACH_DEFINED_FUNCTION (node)
    if (DECL_NAME (node->decl) && MAIN_NAME_P (DECL_NAME (node->decl))
	&& TREE_PUBLIC (node->decl) && DECL_FILE_SCOPE_P (node->decl))
      return true;
  return false;
}

static void
ompc_ipa_start (void *gcc_data, void *user_data)
{
  ompc_off = !flag_openmp && ompc_defines_main ();
  if (ompc_off)
    return;
  ompc_rename_main ();
  ompc_move_globals ();
}

/* The runtime's ompc_flush (void).  */
static tree
ompc_flush_fn (void)
{
  return ompc_extern_fn ("ompc_flush",
			 build_function_type_list (void_type_node, NULL_TREE));
}

/* Whether nothing can follow CALL in its basic block: it does not
   return, or it ends the block with an EH or abnormal edge.  */
static bool
ompc_call_ends_bb_p (gimple *call)
{
  if (gimple_call_noreturn_p (call))
    return true;
  basic_block bb = gimple_bb (call);
  if (gsi_stmt (gsi_last_bb (bb)) != call)
    return false;
  edge e;
  edge_iterator ei;
  FOR_EACH_EDGE (e, ei, bb->succs)
    if (e->flags & (EDGE_EH | EDGE_ABNORMAL))
      return true;
  return false;
}

/* Threadprivate data handed to other threads (rewrite 5): if STMT stores
   the address of (part of) a thread-local variable into the block that
   GOMP_parallel (copyin of an array, a struct, a COMMON block or a Fortran
   descriptor: GCC passes those by address) or GOMP_single_copy_end
   (copyprivate) hands to the team, the address is that thread's TLS,
   private memory that threads on other nodes cannot read.  The runtime
   gives a shared copy's address instead (the TLS address itself with one
   node) and frees the copy after the call that hands the block over, which
   returns only once the team has used it:
     .omp_data_o.3.t = &t;  GOMP_parallel (fn, &.omp_data_o.3, 0, 0);
     ->  a = &t;  c = ompc_tls_share (a, sizeof t);  .omp_data_o.3.t = c;
	 GOMP_parallel (fn, &.omp_data_o.3, 0, 0);  ompc_tls_unshare (a, c);
   Returns whether STMT changed.  */
static bool
ompc_share_tls_address (gimple_stmt_iterator *gsi)
{
  gimple *stmt = gsi_stmt (*gsi);
  if (!gimple_assign_single_p (stmt))
    return false;
  tree lhs = gimple_assign_lhs (stmt);
  tree rhs = gimple_assign_rhs1 (stmt);
  if (TREE_CODE (lhs) != COMPONENT_REF || TREE_CODE (rhs) != ADDR_EXPR)
    return false;
  tree block = get_base_address (lhs);
  if (!block || !VAR_P (block) || !DECL_NAME (block))
    return false;
  const char *name = IDENTIFIER_POINTER (DECL_NAME (block));
  if (!startswith (name, ".omp_data_o") && !startswith (name, ".omp_copy_o"))
    return false;
  tree obj = TREE_OPERAND (rhs, 0);
  tree base = get_base_address (obj);
  if (!base || !VAR_P (base) || !DECL_THREAD_LOCAL_P (base)
      || !COMPLETE_TYPE_P (TREE_TYPE (obj))
      || TREE_CODE (TYPE_SIZE_UNIT (TREE_TYPE (obj))) != INTEGER_CST)
    return false;

  /* The call that hands the block over: the next one in the block that
     takes its address.  */
  gimple *use = NULL;
  gimple_stmt_iterator it = *gsi;
  for (gsi_next (&it); !gsi_end_p (it) && !use; gsi_next (&it))
    if (gcall *c = dyn_cast<gcall *> (gsi_stmt (it)))
      for (unsigned i = 0; i < gimple_call_num_args (c); i++)
	{
	  tree arg = gimple_call_arg (c, i);
	  if (TREE_CODE (arg) == ADDR_EXPR && TREE_OPERAND (arg, 0) == block)
	    use = c;
	}
  if (!use || ompc_call_ends_bb_p (use))
    {
      if (ompc_warnings)
	warning_at (gimple_location (stmt), 0,
		    "ompcluster: threadprivate %qE is handed to the team by "
		    "address in a form the plugin does not follow: threads on "
		    "other nodes will not read it", base);
      return false;
    }

  location_t loc = gimple_location (stmt);
  tree share = ompc_extern_fn ("ompc_tls_share",
			       build_function_type_list (ptr_type_node,
							 ptr_type_node,
							 size_type_node,
							 NULL_TREE));
  tree unshare = ompc_extern_fn ("ompc_tls_unshare",
				 build_function_type_list (void_type_node,
							   ptr_type_node,
							   ptr_type_node,
							   NULL_TREE));
  tree addr = create_tmp_reg (TREE_TYPE (rhs), "ompc_tls_addr");
  gimple *g = gimple_build_assign (addr, unshare_expr (rhs));
  gimple_set_location (g, loc);
  gsi_insert_before (gsi, g, GSI_SAME_STMT);
  tree copy = create_tmp_reg (ptr_type_node, "ompc_tls_copy");
  g = gimple_build_call (share, 2, addr,
			 fold_convert (size_type_node,
				       TYPE_SIZE_UNIT (TREE_TYPE (obj))));
  gimple_call_set_lhs (g, copy);
  gimple_set_location (g, loc);
  gsi_insert_before (gsi, g, GSI_SAME_STMT);
  tree typed = create_tmp_reg (TREE_TYPE (rhs), "ompc_tls_copy");
  g = gimple_build_assign (typed, NOP_EXPR, copy);
  gimple_set_location (g, loc);
  gsi_insert_before (gsi, g, GSI_SAME_STMT);
  gimple_assign_set_rhs1 (stmt, typed);

  g = gimple_build_call (unshare, 2, addr, copy);
  gimple_set_location (g, gimple_location (use));
  gimple_stmt_iterator ui = gsi_for_stmt (use);
  gsi_insert_after (&ui, g, GSI_SAME_STMT);
  return true;
}

/* Whether TYPE is a gfortran array descriptor: a record whose first field
   is the "data" pointer, followed by the offset and the dtype.  */
static bool
ompc_gfortran_descriptor_p (tree type)
{
  if (TREE_CODE (type) != RECORD_TYPE)
    return false;
  tree data = TYPE_FIELDS (type);
  return (data && TREE_CODE (data) == FIELD_DECL && DECL_NAME (data)
	  && id_equal (DECL_NAME (data), "data")
	  && POINTER_TYPE_P (TREE_TYPE (data)));
}

/* libgfortran's array results (rewrite 6): a libgfortran routine called
   with a descriptor whose data pointer is NULL allocates the result with
   libc's malloc (MATMUL, RESHAPE, PACK, SUM with DIM, ...), and the
   compiled code then adopts that memory, e.g. as an allocatable's data:
   memory other nodes cannot see.  Around such a call at GSI, each
   descriptor passed by address has its data pointer handed to the
   runtime, which moves what libgfortran allocated into the shared heap:
     _gfortran_matmul_r8 (&D.1, &a, &a, 0, 0, 0B);
     ->  b = D.1.data;  _gfortran_matmul_r8 (&D.1, ...);
	 ompc_gfortran_result (b, &D.1.data);
   Returns whether it changed anything.  */
static bool
ompc_share_gfortran_results (gimple_stmt_iterator *gsi)
{
  gcall *call = as_a<gcall *> (gsi_stmt (*gsi));
  if (ompc_call_ends_bb_p (call))
    return false;
  location_t loc = gimple_location (call);
  bool changed = false;
  for (unsigned i = 0; i < gimple_call_num_args (call); i++)
    {
      tree arg = gimple_call_arg (call, i);
      if (TREE_CODE (arg) != ADDR_EXPR)
	continue;
      tree desc = TREE_OPERAND (arg, 0);
      if (!VAR_P (desc) || !ompc_gfortran_descriptor_p (TREE_TYPE (desc)))
	continue;
      tree field = TYPE_FIELDS (TREE_TYPE (desc));
      tree ref = build3 (COMPONENT_REF, TREE_TYPE (field), desc, field,
			 NULL_TREE);
      tree before = create_tmp_reg (TREE_TYPE (field), "ompc_data");
      gimple *g = gimple_build_assign (before, ref);
      gimple_set_location (g, loc);
      gsi_insert_before (gsi, g, GSI_SAME_STMT);
      tree fn = ompc_extern_fn ("ompc_gfortran_result",
				build_function_type_list
				  (void_type_node, ptr_type_node,
				   build_pointer_type (ptr_type_node),
				   NULL_TREE));
      g = gimple_build_call (fn, 2, before,
			     build_fold_addr_expr (unshare_expr (ref)));
      gimple_set_location (g, loc);
      gsi_insert_after (gsi, g, GSI_SAME_STMT);
      changed = true;
    }
  return changed;
}

/* Unformatted I/O into and out of shared memory (rewrite 7): libgfortran
   hands large arrays and strings straight to read(2) and write(2), which
   fail with EFAULT on a shared page this node holds invalid or read-only.
   Before the transfer call at GSI (NAME its symbol), the runtime touches
   the data's pages as the transfer will use them:
     _gfortran_transfer_array (&dt, &a, 8, 0);
     ->  ompc_gfortran_io_array (&a, 1);  _gfortran_transfer_array (...);
     _gfortran_transfer_character_write (&dt, &s, 20000);
     ->  ompc_gfortran_io (&s, 20000, 0);  _gfortran_transfer_...
   The calls without "_write" are READ statements'.  Numeric scalars go
   through libgfortran's buffer and are left alone.  Returns whether it
   inserted a call.  */
static bool
ompc_touch_gfortran_io (gimple_stmt_iterator *gsi, const char *name)
{
  gcall *call = as_a<gcall *> (gsi_stmt (*gsi));
  const char *what = name + strlen ("_gfortran_transfer_");
  bool reading = !strstr (what, "_write");
  bool array = startswith (what, "array");
  bool wide = startswith (what, "character_wide");
  if (!array && !startswith (what, "character"))
    return false;
  if (gimple_call_num_args (call) < (wide ? 4u : 3u))
    return false;
  tree i32 = build_nonstandard_integer_type (32, 0);
  tree flag = build_int_cst (i32, reading);
  gcall *g;
  if (array)
    {
      tree fn = ompc_extern_fn ("ompc_gfortran_io_array",
				build_function_type_list
				  (void_type_node, const_ptr_type_node, i32,
				   NULL_TREE));
      g = gimple_build_call (fn, 2, gimple_call_arg (call, 1), flag);
    }
  else
    {
      tree fn = ompc_extern_fn ("ompc_gfortran_io",
				build_function_type_list
				  (void_type_node, const_ptr_type_node,
				   size_type_node, i32, NULL_TREE));
      /* LEN characters, of KIND bytes each for the wide ones.  */
      tree len = gimple_call_arg (call, 2);
      if (!useless_type_conversion_p (size_type_node, TREE_TYPE (len)))
	{
	  tree t = create_tmp_reg (size_type_node, "ompc_len");
	  gimple *c = gimple_build_assign (t, NOP_EXPR, len);
	  gimple_set_location (c, gimple_location (call));
	  gsi_insert_before (gsi, c, GSI_SAME_STMT);
	  len = t;
	}
      if (wide)
	{
	  tree kind = create_tmp_reg (size_type_node, "ompc_kind");
	  gimple *c = gimple_build_assign (kind, NOP_EXPR,
					   gimple_call_arg (call, 3));
	  gimple_set_location (c, gimple_location (call));
	  gsi_insert_before (gsi, c, GSI_SAME_STMT);
	  tree bytes = create_tmp_reg (size_type_node, "ompc_bytes");
	  c = gimple_build_assign (bytes, MULT_EXPR, len, kind);
	  gimple_set_location (c, gimple_location (call));
	  gsi_insert_before (gsi, c, GSI_SAME_STMT);
	  len = bytes;
	}
      g = gimple_build_call (fn, 3, gimple_call_arg (call, 1), len, flag);
    }
  gimple_set_location (g, gimple_location (call));
  gsi_insert_before (gsi, g, GSI_SAME_STMT);
  return true;
}

/* Whether FUN contains an OpenMP construct: it is an outlined region body,
   or it calls into the runtime's GOMP_* ABI.  */
static bool
ompc_function_has_omp (function *fun)
{
  cgraph_node *node = cgraph_node::get (fun->decl);
  if (node && node->parallelized_function)
    return true;
  basic_block bb;
  FOR_EACH_BB_FN (bb, fun)
    for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
	 gsi_next (&gsi))
      if (tree fn = is_gimple_call (gsi_stmt (gsi))
		    ? gimple_call_fndecl (gsi_stmt (gsi)) : NULL_TREE)
	if (startswith (IDENTIFIER_POINTER (DECL_ASSEMBLER_NAME (fn)),
			"GOMP_"))
	  return true;
  return false;
}

/* The GIMPLE pass: heap calls and addresses, atomics, fences, and the
   warnings, in one walk over FUN.  */
static unsigned int
ompc_rewrite_function (function *fun)
{
  if (ompc_off)
    return 0;
  bool changed = false, warned_asm = false;
  bool omp = ompc_function_has_omp (fun);
  auto_vec<gimple *> guarded;
  basic_block bb;
  FOR_EACH_BB_FN (bb, fun)
    for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
	 gsi_next (&gsi))
      {
	gimple *stmt = gsi_stmt (gsi);
	if (gasm *a = dyn_cast<gasm *> (stmt))
	  {
	    if (omp && ompc_warnings && !warned_asm
		&& gimple_asm_string (a)[0])
	      {
		warning_at (gimple_location (a), 0,
			    "ompcluster: inline assembly in a function with "
			    "OpenMP constructs is not made cluster-safe: its "
			    "memory accesses and atomics bypass the DSM");
		warned_asm = true;
	      }
	    continue;
	  }
	if (ompc_share_tls_address (&gsi))
	  {
	    ompc_stats.tls_copies++;
	    changed = true;
	    continue;
	  }
	if (ompc_is_atomic (stmt))
	  {
	    ompc_take_atomic (&gsi, &guarded);
	    changed = true;
	    continue;
	  }
	if (tree fn = is_gimple_call (stmt) ? gimple_call_fndecl (stmt)
					     : NULL_TREE)
	  {
	    if (ompc_warnings
		&& startswith (IDENTIFIER_POINTER (DECL_ASSEMBLER_NAME (fn)),
			       "GOMP_target"))
	      warning_at (gimple_location (stmt), 0,
			  "ompcluster: %<target%> constructs are not "
			  "distributed: the region runs on the host, in the "
			  "node of the thread that meets it");
	    if (fndecl_built_in_p (fn, BUILT_IN_SYNC_SYNCHRONIZE)
		|| fndecl_built_in_p (fn, BUILT_IN_ATOMIC_THREAD_FENCE))
	      {
		gcall *g = gimple_build_call (ompc_flush_fn (), 0);
		gimple_set_location (g, gimple_location (stmt));
		gsi_replace (&gsi, g, true);
		ompc_stats.flushes++;
		changed = true;
		continue;
	      }
	    if (tree repl = ompc_heap_replacement (fn))
	      {
		gimple_call_set_fndecl (as_a<gcall *> (stmt), repl);
		ompc_stats.heap_calls++;
		changed = true;
	      }
	    else if (ompc_fortran
		     && startswith (IDENTIFIER_POINTER
				      (DECL_ASSEMBLER_NAME (fn)), "_gfortran_"))
	      {
		const char *name
		  = IDENTIFIER_POINTER (DECL_ASSEMBLER_NAME (fn));
		if (startswith (name, "_gfortran_transfer_")
		    && ompc_touch_gfortran_io (&gsi, name))
		  {
		    ompc_stats.gfortran_io++;
		    changed = true;
		  }
		if ((strcmp (name, "_gfortran_st_read") == 0
		     || strcmp (name, "_gfortran_st_write") == 0)
		    && gimple_call_num_args (stmt) == 1)
		  {
		    /* Rewrite 8: the unit must be connected on this node.  */
		    tree fn = ompc_extern_fn ("ompc_gfortran_unit",
					      build_function_type_list
						(void_type_node,
						 const_ptr_type_node,
						 NULL_TREE));
		    gcall *g = gimple_build_call (fn, 1,
						  gimple_call_arg (stmt, 0));
		    gimple_set_location (g, gimple_location (stmt));
		    gsi_insert_before (&gsi, g, GSI_SAME_STMT);
		    ompc_stats.gfortran_io++;
		    changed = true;
		  }
		/* Not the coarray library (it frees what it allocated)
		   nor the descriptor conversions (they point a descriptor
		   at the program's own array).  */
		if (!startswith (name, "_gfortran_caf_")
		    && strcmp (name, "_gfortran_cfi_desc_to_gfc_desc") != 0
		    && strcmp (name, "_gfortran_gfc_desc_to_cfi_desc") != 0
		    && ompc_share_gfortran_results (&gsi))
		  {
		    ompc_stats.gfortran_results++;
		    changed = true;
		  }
	      }
	  }
	/* Heap functions taken as pointers.  */
	struct walk_stmt_info wi;
	unsigned n = 0;
	memset (&wi, 0, sizeof wi);
	wi.info = &n;
	walk_gimple_op (stmt,
			[] (tree *tp, int *walk_subtrees, void *data) -> tree
			{
			  struct walk_stmt_info *w = (struct walk_stmt_info *) data;
			  return ompc_replace_heap_addr (tp, walk_subtrees,
							 w->info);
			}, &wi);
	if (n)
	  {
	    ompc_stats.heap_addrs += n;
	    changed = true;
	  }
      }
  ompc_guard_atomics (&guarded);
  if (changed)
    cgraph_edge::rebuild_edges ();
  return 0;
}

static void
ompc_finish_unit (void *gcc_data, void *user_data)
{
  if (!ompc_verbose)
    return;
  if (ompc_off)
    {
      fprintf (stderr, "%s: ompcluster: OpenMP is off and the unit defines "
	       "main: nothing rewritten\n", main_input_filename);
      return;
    }
  fprintf (stderr,
	   "%s: ompcluster: %u variables moved to the shared segment ("
	   HOST_WIDE_INT_PRINT_UNSIGNED " bytes initialised, "
	   HOST_WIDE_INT_PRINT_UNSIGNED " bytes zero, %u made weak, %u aligned "
	   "to %u bytes), %u kept "
	   "out (user section); main %s; %u heap calls and %u heap "
	   "function addresses rewritten; %u atomics (%u of them in loops GCC "
	   "parallelized) and %u flushes "
	   "rewritten; %u threadprivate addresses replaced by shared "
	   "copies; %u libgfortran calls with array results checked; %u I/O "
	   "statements and transfers checked\n",
	   main_input_filename, ompc_stats.vars,
	   ompc_stats.data_bytes, ompc_stats.zero_bytes, ompc_stats.weak,
	   ompc_stats.aligned, OMPC_BLOCK_ALIGN, ompc_stats.kept,
	   ompc_stats.main_renamed ? "renamed to " OMPC_USER_MAIN
	   : "not defined here", ompc_stats.heap_calls, ompc_stats.heap_addrs,
	   ompc_stats.atomics, ompc_stats.loop_atomics, ompc_stats.flushes,
	   ompc_stats.tls_copies,
	   ompc_stats.gfortran_results, ompc_stats.gfortran_io);
}

static const pass_data ompc_rewrite_pass_data = {
  GIMPLE_PASS,		/* type */
  "ompcluster",		/* name */
  OPTGROUP_NONE,	/* optinfo_flags */
  TV_NONE,		/* tv_id */
  PROP_cfg,		/* properties_required */
  0,			/* properties_provided */
  0,			/* properties_destroyed */
  0,			/* todo_flags_start */
  0,			/* todo_flags_finish */
};

static const pass_data ompc_loopfn_pass_data = {
  GIMPLE_PASS,		/* type */
  "ompcluster_loopfn",	/* name */
  OPTGROUP_NONE,	/* optinfo_flags */
  TV_NONE,		/* tv_id */
  PROP_cfg | PROP_ssa,	/* properties_required */
  0,			/* properties_provided */
  0,			/* properties_destroyed */
  0,			/* todo_flags_start */
  0,			/* todo_flags_finish */
};

int
plugin_init (struct plugin_name_args *info, struct plugin_gcc_version *version)
{
  const char *name = info->base_name;

  /* Version: GCC 12, and the very GCC the plugin was built against.  */
  if (!startswith (version->basever, "12."))
    {
      error ("ompcluster: this plugin supports GCC 12 only, and this is "
	     "GCC %s; compile with gcc-12", version->basever);
      return 1;
    }
  if (!plugin_default_version_check (version, &gcc_version))
    {
      error ("ompcluster: this plugin was built for GCC %s (%s) and cannot "
	     "run in GCC %s (%s); rebuild ompcluster with this compiler",
	     gcc_version.basever, gcc_version.datestamp, version->basever,
	     version->datestamp);
      return 1;
    }

  /* Arguments.  */
  for (int i = 0; i < info->argc; i++)
    {
      const char *key = info->argv[i].key;
      if (strcmp (key, "verbose") == 0 && !info->argv[i].value)
	ompc_verbose = true;
      else if (strcmp (key, "no-warnings") == 0 && !info->argv[i].value)
	ompc_warnings = false;
      else if (strcmp (key, "inline-atomics") == 0 && !info->argv[i].value)
	ompc_inline_atomics = true;
      else if (strcmp (key, "no-inline-atomics") == 0
	       && !info->argv[i].value)
	ompc_inline_atomics = false;
      else if (strcmp (key, "help") == 0 && !info->argv[i].value)
	fputs (ompc_help, stderr);
      else
	{
	  error ("ompcluster: unknown option %<-fplugin-arg-%s-%s%s%s%>; "
		 "%<-fplugin-arg-%s-help%> lists the options", name, key,
		 info->argv[i].value ? "=" : "",
		 info->argv[i].value ? info->argv[i].value : "", name);
	  return 1;
	}
    }

  register_callback (name, PLUGIN_INFO, NULL, &ompc_plugin_info);

  /* gfortran: a main program built with -fbacktrace installs libgfortran's
     SIGSEGV handler over the DSM's fault handler (options are decoded
     before plugins start, so this overrides -fbacktrace).  */
  flag_backtrace = 0;
  ompc_fortran = strcmp (lang_hooks.name, "GNU Fortran") == 0;

  /* Passes.  */
  struct register_pass_info pass;
  pass.pass = new ompc_gimple_pass (ompc_rewrite_pass_data,
				    ompc_rewrite_function);
  pass.reference_pass_name = "ssa";
  pass.ref_pass_instance_number = 1;
  pass.pos_op = PASS_POS_INSERT_BEFORE;
  register_callback (name, PLUGIN_PASS_MANAGER_SETUP, NULL, &pass);
  /* At the start of all_passes, where the functions "parloops" makes
     start their compilation: before its second pass, "ehdisp" (the first,
     fixup_cfg, has several instances, which a plugin cannot tell apart
     by number).  */
  pass.pass = new ompc_gimple_pass (ompc_loopfn_pass_data,
				    ompc_rewrite_loopfn);
  pass.reference_pass_name = "ehdisp";
  pass.ref_pass_instance_number = 1;
  pass.pos_op = PASS_POS_INSERT_BEFORE;
  register_callback (name, PLUGIN_PASS_MANAGER_SETUP, NULL, &pass);
  register_callback (name, PLUGIN_ALL_IPA_PASSES_START, ompc_ipa_start, NULL);
  register_callback (name, PLUGIN_FINISH_UNIT, ompc_finish_unit, NULL);
  return 0;
}
