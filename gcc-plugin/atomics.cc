/* atomics.cc -- the ompcluster plugin's rewrite 4 (see ompcluster.cc):
   every __atomic_* / __sync_* builtin and GCC's internal
   .ATOMIC_COMPARE_EXCHANGE become the runtime's ompc_atomic_* calls,
   behind an inline test of ompc_cluster_slot for the 1- to 8-byte ones
   (inline-atomics, the default):
     __atomic_fetch_add_4 (&x, 1, 0)
     ->  if (*ompc_cluster_slot != 0)  ompc_atomic_fetch_add_4 (&x, 1, 0);
	 else                          __atomic_fetch_add_4 (&x, 1, 0);
   The first pass (ompcluster.cc) calls ompc_take_atomic and
   ompc_guard_atomics in every function before "ssa"; the second,
   ompc_rewrite_loopfn, rewrites the reductions' merges of the loops GCC
   parallelizes itself, in SSA form, at the start of all_passes.  */

#include "ompcluster.h"

/* The runtime's replacement for the atomic builtin DECL, or NULL: the
   builtin's name with "__" turned into "ompc_", and the builtin's type.  */
static tree
ompc_atomic_replacement (tree decl)
{
  if (!fndecl_built_in_p (decl, BUILT_IN_NORMAL))
    return NULL_TREE;
  switch (DECL_FUNCTION_CODE (decl))
    {
    case BUILT_IN_ATOMIC_ALWAYS_LOCK_FREE:
    case BUILT_IN_ATOMIC_IS_LOCK_FREE:
    case BUILT_IN_ATOMIC_SIGNAL_FENCE:
    case BUILT_IN_ATOMIC_FERAISEEXCEPT:
      return NULL_TREE;
    default:
      break;
    }
  const char *name = IDENTIFIER_POINTER (DECL_NAME (decl));
  if (!startswith (name, "__atomic_") && !startswith (name, "__sync_"))
    return NULL_TREE;
  char *repl = ACONCAT (("ompc_", name + 2, NULL));
  return ompc_extern_fn (repl, TREE_TYPE (decl));
}

/* The __sync builtins that are an __atomic builtin with a fixed memory
   order: rewritten to that one's runtime function, so the runtime needs
   only the __atomic family (and the two __sync compare-and-swaps).  */
static const struct
{
  enum built_in_function sync_n, atomic_n;
  int memorder;
  bool store_zero;
} ompc_sync_forms[] = {
  { BUILT_IN_SYNC_FETCH_AND_ADD_N, BUILT_IN_ATOMIC_FETCH_ADD_N, MEMMODEL_SEQ_CST, false },
  { BUILT_IN_SYNC_FETCH_AND_SUB_N, BUILT_IN_ATOMIC_FETCH_SUB_N, MEMMODEL_SEQ_CST, false },
  { BUILT_IN_SYNC_FETCH_AND_OR_N, BUILT_IN_ATOMIC_FETCH_OR_N, MEMMODEL_SEQ_CST, false },
  { BUILT_IN_SYNC_FETCH_AND_AND_N, BUILT_IN_ATOMIC_FETCH_AND_N, MEMMODEL_SEQ_CST, false },
  { BUILT_IN_SYNC_FETCH_AND_XOR_N, BUILT_IN_ATOMIC_FETCH_XOR_N, MEMMODEL_SEQ_CST, false },
  { BUILT_IN_SYNC_FETCH_AND_NAND_N, BUILT_IN_ATOMIC_FETCH_NAND_N, MEMMODEL_SEQ_CST, false },
  { BUILT_IN_SYNC_ADD_AND_FETCH_N, BUILT_IN_ATOMIC_ADD_FETCH_N, MEMMODEL_SEQ_CST, false },
  { BUILT_IN_SYNC_SUB_AND_FETCH_N, BUILT_IN_ATOMIC_SUB_FETCH_N, MEMMODEL_SEQ_CST, false },
  { BUILT_IN_SYNC_OR_AND_FETCH_N, BUILT_IN_ATOMIC_OR_FETCH_N, MEMMODEL_SEQ_CST, false },
  { BUILT_IN_SYNC_AND_AND_FETCH_N, BUILT_IN_ATOMIC_AND_FETCH_N, MEMMODEL_SEQ_CST, false },
  { BUILT_IN_SYNC_XOR_AND_FETCH_N, BUILT_IN_ATOMIC_XOR_FETCH_N, MEMMODEL_SEQ_CST, false },
  { BUILT_IN_SYNC_NAND_AND_FETCH_N, BUILT_IN_ATOMIC_NAND_FETCH_N, MEMMODEL_SEQ_CST, false },
  { BUILT_IN_SYNC_LOCK_TEST_AND_SET_N, BUILT_IN_ATOMIC_EXCHANGE_N, MEMMODEL_ACQUIRE, false },
  { BUILT_IN_SYNC_LOCK_RELEASE_N, BUILT_IN_ATOMIC_STORE_N, MEMMODEL_RELEASE, true },
};

/* Rewrites the call at GSI to FN if FN is one of ompc_sync_forms:
     __sync_fetch_and_add_4 (p, v)  ->  ompc_atomic_fetch_add_4 (p, v, 5)
     __sync_lock_release_8 (p)      ->  ompc_atomic_store_8 (p, 0, 3)
   Returns whether it did.  */
static bool
ompc_rewrite_sync (gimple_stmt_iterator *gsi, tree fn)
{
  if (!fndecl_built_in_p (fn, BUILT_IN_NORMAL))
    return false;
  int code = DECL_FUNCTION_CODE (fn);
  for (const auto &f : ompc_sync_forms)
    {
      /* The sized variants _1, _2, _4, _8, _16 follow each _N.  */
      int k = code - (f.sync_n + 1);
      if (k < 0 || k > 4)
	continue;
      tree atomic = builtin_decl_explicit ((enum built_in_function)
					   (f.atomic_n + 1 + k));
      tree repl = ompc_atomic_replacement (atomic);
      gcall *old = as_a<gcall *> (gsi_stmt (*gsi));
      tree types = TYPE_ARG_TYPES (TREE_TYPE (atomic));
      tree ptr = gimple_call_arg (old, 0);
      tree val = f.store_zero
		 ? build_int_cst (TREE_VALUE (TREE_CHAIN (types)), 0)
		 : gimple_call_arg (old, 1);
      gcall *c = gimple_build_call (repl, 3, ptr, val,
				    build_int_cst (integer_type_node,
						   f.memorder));
      gimple_call_set_lhs (c, gimple_call_lhs (old));
      gimple_set_location (c, gimple_location (old));
      gsi_replace (gsi, c, true);
      return true;
    }
  return false;
}

/* A temporary holding a value: a new SSA name in a function in SSA form
   (the loops GCC parallelizes, ompc_rewrite_loopfn), a variable before
   (the first pass).  */
static tree
ompc_tmp (tree type, const char *name)
{
  if (gimple_in_ssa_p (cfun))
    return make_temp_ssa_name (type, NULL, name);
  return create_tmp_var (type, name);
}

/* Lowers the internal call
     LHS = .ATOMIC_COMPARE_EXCHANGE (ADDR, E, D, SIZE | WEAK << 8, MO, FMO)
   (LHS complex: the old value and the success flag) at GSI into a call of
   the runtime's __atomic_compare_exchange_SIZE equivalent.  */
static void
ompc_lower_ifn_cas (gimple_stmt_iterator *gsi)
{
  gcall *call = as_a<gcall *> (gsi_stmt (*gsi));
  location_t loc = gimple_location (call);
  int flag = tree_to_shwi (gimple_call_arg (call, 3));
  int size = flag & 255;
  tree builtin = builtin_decl_explicit ((enum built_in_function)
					(BUILT_IN_ATOMIC_COMPARE_EXCHANGE_1
					 + exact_log2 (size)));
  tree fn = ompc_atomic_replacement (builtin);
  tree e = gimple_call_arg (call, 1);
  tree expected = create_tmp_var (TREE_TYPE (e), "ompc_expected");
  TREE_ADDRESSABLE (expected) = 1;
  gimple *g = gimple_build_assign (expected, e);
  gimple_set_location (g, loc);
  gsi_insert_before (gsi, g, GSI_SAME_STMT);

  /* The runtime function's own types for the flag and the result: they
     differ between front ends (C's _Bool, Fortran's logical).  */
  tree fntype = TREE_TYPE (fn);
  tree bool_arg = TREE_VALUE (TREE_CHAIN (TREE_CHAIN (TREE_CHAIN
					(TYPE_ARG_TYPES (fntype)))));
  tree lhs = gimple_call_lhs (call);
  tree ok = lhs ? ompc_tmp (TREE_TYPE (fntype), "ompc_ok") : NULL_TREE;
  gcall *c = gimple_build_call (fn, 6, gimple_call_arg (call, 0),
				build_fold_addr_expr (expected),
				gimple_call_arg (call, 2),
				build_int_cst (bool_arg, (flag & 256) != 0),
				gimple_call_arg (call, 4),
				gimple_call_arg (call, 5));
  gimple_call_set_lhs (c, ok);
  gimple_set_location (c, loc);
  if (!lhs)
    {
      gsi_replace (gsi, c, true);
      return;
    }
  gsi_insert_before (gsi, c, GSI_SAME_STMT);

  /* LHS = COMPLEX_EXPR <(T) EXPECTED, (T) OK>, each part first loaded or
     converted into a register of its own.  */
  tree etype = TREE_TYPE (TREE_TYPE (lhs));
  tree loaded = ompc_tmp (TREE_TYPE (expected), "ompc_loaded");
  g = gimple_build_assign (loaded, expected);
  gimple_set_location (g, loc);
  gsi_insert_before (gsi, g, GSI_SAME_STMT);
  tree parts[2] = { loaded, ok };
  for (tree &part : parts)
    if (!useless_type_conversion_p (etype, TREE_TYPE (part)))
      {
	tree conv = ompc_tmp (etype, "ompc_conv");
	g = gimple_build_assign (conv, NOP_EXPR, part);
	gimple_set_location (g, loc);
	gsi_insert_before (gsi, g, GSI_SAME_STMT);
	part = conv;
      }
  g = gimple_build_assign (lhs, COMPLEX_EXPR, parts[0], parts[1]);
  gimple_set_location (g, loc);
  gsi_replace (gsi, g, true);
}

/* Whether STMT is an atomic the runtime takes over: the internal
   compare-and-swap or an __atomic_* / __sync_* builtin (fences apart).  */
bool
ompc_is_atomic (gimple *stmt)
{
  if (gimple_call_internal_p (stmt, IFN_ATOMIC_COMPARE_EXCHANGE))
    return true;
  tree fn = is_gimple_call (stmt) ? gimple_call_fndecl (stmt) : NULL_TREE;
  return (fn && !fndecl_built_in_p (fn, BUILT_IN_SYNC_SYNCHRONIZE)
	  && !fndecl_built_in_p (fn, BUILT_IN_ATOMIC_THREAD_FENCE)
	  && ompc_atomic_replacement (fn));
}

/* Whether GCC expands the atomic STMT inline (1 to 8 bytes, the flag
   builtins), rather than calling libatomic (16 bytes, other sizes), which
   the guarded form must not call.  */
static bool
ompc_native_inline_p (gimple *stmt)
{
  if (gimple_call_internal_p (stmt))
    return true;
  const char *name = IDENTIFIER_POINTER (DECL_NAME (gimple_call_fndecl (stmt)));
  size_t len = strlen (name);
  return (strcmp (name, "__atomic_test_and_set") == 0
	  || strcmp (name, "__atomic_clear") == 0
	  || (len > 2 && name[len - 2] == '_' && strchr ("1248", name[len - 1])
	      && !(len > 3 && name[len - 3] == '_' && name[len - 1] == '6')));
}

/* Rewrites the atomic at GSI (ompc_is_atomic) into its runtime call.  */
static void
ompc_rewrite_atomic (gimple_stmt_iterator *gsi)
{
  gimple *stmt = gsi_stmt (*gsi);
  if (gimple_call_internal_p (stmt, IFN_ATOMIC_COMPARE_EXCHANGE))
    {
      ompc_lower_ifn_cas (gsi);
      return;
    }
  tree fn = gimple_call_fndecl (stmt);
  if (!ompc_rewrite_sync (gsi, fn))
    {
      gimple_call_set_fndecl (as_a<gcall *> (stmt),
			      ompc_atomic_replacement (fn));
      if (gimple_in_ssa_p (cfun))
	update_stmt (stmt);
    }
}

/* The runtime's ompc_cluster_slot: the address of its cluster pointer,
   NULL with one node.  */
static tree
ompc_cluster_slot (void)
{
  tree id = get_identifier ("ompc_cluster_slot");
  if (symtab_node *node = symtab_node::get_for_asmname (id))
    if (VAR_P (node->decl))
      return node->decl;
  tree type = build_qualified_type (build_pointer_type (ptr_type_node),
				    TYPE_QUAL_CONST);
  tree decl = build_decl (UNKNOWN_LOCATION, VAR_DECL, id, type);
  TREE_PUBLIC (decl) = 1;
  DECL_EXTERNAL (decl) = 1;
  TREE_READONLY (decl) = 1;
  DECL_ARTIFICIAL (decl) = 1;
  varpool_node::get_create (decl);
  return decl;
}

/* -fplugin-arg-ompcluster-inline-atomics: keeps the native atomic STMT for
   one node behind a test of the runtime's cluster pointer, and calls the
   runtime only with several nodes:
     if (*ompc_cluster_slot != 0)  ompc_atomic_fetch_add_4 (&x, 1, 0);
     else                          __atomic_fetch_add_4 (&x, 1, 0);  */
static void
ompc_guard_atomic (gimple *stmt)
{
  location_t loc = gimple_location (stmt);
  basic_block cond_bb = gimple_bb (stmt);
  gimple_stmt_iterator gsi = gsi_for_stmt (stmt);
  gsi_prev (&gsi);
  edge e_native = split_block (cond_bb,
			       gsi_end_p (gsi) ? NULL : gsi_stmt (gsi));
  basic_block native_bb = e_native->dest;
  edge e_join_native = split_block (native_bb, stmt);
  basic_block join_bb = e_join_native->dest;
  basic_block cluster_bb = create_empty_bb (native_bb);
  if (current_loops)
    add_bb_to_loop (cluster_bb, native_bb->loop_father);
  edge e_join_cluster = make_edge (cluster_bb, join_bb, EDGE_FALLTHRU);
  bool ssa = gimple_in_ssa_p (cfun);

  /* The gimplifier's temporaries are SSA names already: both paths set a
     variable instead, copied into the SSA name where they join.  In SSA
     form each path sets a name of its own, and a PHI joins them.  */
  tree lhs = gimple_call_lhs (stmt);
  tree cluster_lhs = NULL_TREE;
  if (lhs && TREE_CODE (lhs) == SSA_NAME && ssa)
    {
      tree native_lhs = copy_ssa_name (lhs);
      cluster_lhs = copy_ssa_name (lhs);
      gimple_call_set_lhs (stmt, native_lhs);
      update_stmt (stmt);
      gphi *phi = create_phi_node (lhs, join_bb);
      add_phi_arg (phi, native_lhs, e_join_native, loc);
      add_phi_arg (phi, cluster_lhs, e_join_cluster, loc);
    }
  else if (lhs && TREE_CODE (lhs) == SSA_NAME)
    {
      tree var = create_tmp_var (TREE_TYPE (lhs), "ompc_result");
      gimple_call_set_lhs (stmt, var);
      gimple *g = gimple_build_assign (lhs, var);
      gimple_set_location (g, loc);
      gimple_stmt_iterator jgsi = gsi_after_labels (join_bb);
      gsi_insert_before (&jgsi, g, GSI_SAME_STMT);
    }

  gimple *copy = gimple_copy (stmt);
  if (ssa)
    {
      /* A new statement: its lhs and virtual operands are its own (the
	 pass has the virtual ones renamed).  */
      gimple_call_set_lhs (copy, cluster_lhs);
      if (gimple_vdef (copy))
	gimple_set_vdef (copy, gimple_vop (cfun));
      if (gimple_vuse (copy))
	gimple_set_vuse (copy, gimple_vop (cfun));
    }
  gimple_stmt_iterator cgsi = gsi_start_bb (cluster_bb);
  gsi_insert_after (&cgsi, copy, GSI_NEW_STMT);
  ompc_rewrite_atomic (&cgsi);

  tree slot = ompc_cluster_slot ();
  tree addr = ompc_tmp (TREE_TYPE (slot), "ompc_slot");
  tree ops = ompc_tmp (ptr_type_node, "ompc_cluster");
  gimple_seq seq = NULL;
  gimple *g = gimple_build_assign (addr, slot);
  gimple_set_location (g, loc);
  gimple_seq_add_stmt (&seq, g);
  g = gimple_build_assign (ops, build_simple_mem_ref (addr));
  gimple_set_location (g, loc);
  gimple_seq_add_stmt (&seq, g);
  g = gimple_build_cond (NE_EXPR, ops, null_pointer_node, NULL_TREE,
			 NULL_TREE);
  gimple_set_location (g, loc);
  gimple_seq_add_stmt (&seq, g);
  gimple_stmt_iterator last = gsi_last_bb (cond_bb);
  gsi_insert_seq_after (&last, seq, GSI_NEW_STMT);

  e_native->flags = (e_native->flags & ~EDGE_FALLTHRU) | EDGE_FALSE_VALUE;
  edge e_cluster = make_edge (cond_bb, cluster_bb, EDGE_TRUE_VALUE);
  e_cluster->probability = profile_probability::very_unlikely ();
  e_native->probability = e_cluster->probability.invert ();
  cluster_bb->count = e_cluster->count ();
}

/* The atomic at GSI (ompc_is_atomic): rewritten into its runtime call
   now, or queued in GUARDED for ompc_guard_atomics.  */
void
ompc_take_atomic (gimple_stmt_iterator *gsi, vec<gimple *> *guarded)
{
  if (ompc_inline_atomics && ompc_native_inline_p (gsi_stmt (*gsi)))
    guarded->safe_push (gsi_stmt (*gsi));
  else
    ompc_rewrite_atomic (gsi);
  ompc_stats.atomics++;
}

/* Guards the atomics queued by ompc_take_atomic, once the walk over the
   function's blocks is over (guarding splits blocks).  */
void
ompc_guard_atomics (vec<gimple *> *guarded)
{
  for (gimple *stmt : *guarded)
    ompc_guard_atomic (stmt);
  if (!guarded->is_empty ())
    {
      free_dominance_info (CDI_DOMINATORS);
      if (current_loops)
	loops_state_set (LOOPS_NEED_FIXUP);
    }
}

/* Whether the atomic STMT is already the native half of a pair that
   ompc_guard_atomic made: the one predecessor of its block ends in the
   test of *ompc_cluster_slot.  FUN is in SSA form.  */
static bool
ompc_guarded_p (gimple *stmt)
{
  basic_block bb = gimple_bb (stmt);
  if (!single_pred_p (bb))
    return false;
  gcond *cond = safe_dyn_cast<gcond *> (last_stmt (single_pred (bb)));
  if (!cond || TREE_CODE (gimple_cond_lhs (cond)) != SSA_NAME)
    return false;
  gimple *load = SSA_NAME_DEF_STMT (gimple_cond_lhs (cond));
  if (!gimple_assign_load_p (load)
      || TREE_CODE (gimple_assign_rhs1 (load)) != MEM_REF)
    return false;
  tree addr = TREE_OPERAND (gimple_assign_rhs1 (load), 0);
  if (TREE_CODE (addr) != SSA_NAME)
    return false;
  gimple *def = SSA_NAME_DEF_STMT (addr);
  return (gimple_assign_single_p (def)
	  && VAR_P (gimple_assign_rhs1 (def))
	  && id_equal (DECL_NAME (gimple_assign_rhs1 (def)),
		       "ompc_cluster_slot"));
}

/* The second GIMPLE pass, for the loops GCC parallelizes itself
   (-ftree-parallelize-loops): "parloops" outlines such a loop into
   FN._loopfn.N long after the first pass, and "ompexpssa" expands its
   reductions' merges there into atomics on the shared block of the
   parent's frame,
     _35 = __atomic_load_8 (_34, 0);  ...
     _42 = .ATOMIC_COMPARE_EXCHANGE (_34, _36, _41, 8, 0, 0);
     __atomic_fetch_add_4 (_12, s_7, 0);
   which across nodes would merge into each node's copy of that block:
   one node's part would be lost.  Every function that new passes through
   all_passes (they start there), right after its first pass: the
   merges become the runtime's atomics like any other (guarded).  The
   rest of the body was the parent's, rewritten by the first pass already
   (a loop with calls or atomics is not parallelized; an atomic already
   guarded is left alone all the same).  */
unsigned int
ompc_rewrite_loopfn (function *fun)
{
  if (ompc_off)
    return 0;
  cgraph_node *node = cgraph_node::get (fun->decl);
  if (!node || !node->parallelized_function
      || !strstr (IDENTIFIER_POINTER (DECL_NAME (fun->decl)), "._loopfn"))
    return 0;
  auto_vec<gimple *> guarded;
  bool changed = false;
  basic_block bb;
  FOR_EACH_BB_FN (bb, fun)
    for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
	 gsi_next (&gsi))
      if (ompc_is_atomic (gsi_stmt (gsi)) && !ompc_guarded_p (gsi_stmt (gsi)))
	{
	  ompc_take_atomic (&gsi, &guarded);
	  ompc_stats.loop_atomics++;
	  changed = true;
	}
  if (!changed)
    return 0;
  ompc_guard_atomics (&guarded);
  cgraph_edge::rebuild_edges ();
  mark_virtual_operands_for_renaming (fun);
  return TODO_update_ssa_only_virtuals | TODO_cleanup_cfg;
}
