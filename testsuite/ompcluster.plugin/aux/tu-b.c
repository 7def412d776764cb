/* multi-tu.sh: the second translation unit.  */
int common_var;
extern int total;

void
add_in_b (int k)
{
#pragma omp critical(shared_name)
  {
    total += k;
    common_var += 2 * k;
  }
}
