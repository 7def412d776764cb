/* gcc-common.h -- the GCC headers the ompcluster plugin needs, in the order
   GCC requires, and the one place that knows which GCC it is built for.

   The plugin walks GCC's internal data structures (varpool, GIMPLE, the
   internal .ATOMIC_COMPARE_EXCHANGE call), whose shape changes between
   major versions; it is written and checked against GCC 12 only
   (docs/plugin.md).  Building it for another GCC stops here, and
   loading it into another GCC stops in plugin_init.  */

#ifndef OMPC_GCC_COMMON_H
#define OMPC_GCC_COMMON_H 1

#include "gcc-plugin.h"
#include "bversion.h"

#if BUILDING_GCC_MAJOR != 12
#error "the ompcluster plugin supports GCC 12 only (see docs/plugin.md)"
#endif

#include "tree.h"
#include "tree-pass.h"
#include "context.h"
#include "function.h"
#include "basic-block.h"
#include "cfghooks.h"
#include "cfgloop.h"
#include "dominance.h"
#include "profile-count.h"
#include "gimple.h"
#include "ssa.h"
#include "tree-cfg.h"
#include "tree-into-ssa.h"
#include "gimple-iterator.h"
#include "gimple-walk.h"
#include "gimplify.h"
#include "gimplify-me.h"
#include "cgraph.h"
#include "varasm.h"
#include "output.h"
#include "rtl.h"
#include "stringpool.h"
#include "stor-layout.h"
#include "fold-const.h"
#include "internal-fn.h"
#include "diagnostic-core.h"
#include "langhooks.h"
#include "memmodel.h"
#include "builtins.h"
#include "attribs.h"
#include "hash-map.h"
#include "toplev.h"

/* A GIMPLE pass that runs EXECUTE on every function: the pass boilerplate
   written once.  The pass_data (name, properties) is the caller's.  */
class ompc_gimple_pass : public gimple_opt_pass
{
public:
  ompc_gimple_pass (const pass_data &data, unsigned int (*execute_fn) (function *))
    : gimple_opt_pass (data, g), execute_fn (execute_fn)
  {
  }
  unsigned int execute (function *fun) final override
  {
    return execute_fn (fun);
  }
  opt_pass *clone () final override
  {
    return new ompc_gimple_pass (*this);
  }

private:
  unsigned int (*execute_fn) (function *);
};

#endif /* OMPC_GCC_COMMON_H */
