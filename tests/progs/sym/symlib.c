/* libsymlib.so: the shared library of the symbol tests (see symprog.c). */
static void lib_fill(int *a, int n)
{
	for (int i = 0; i < n; i++)
		a[i] = 2 * i;
}

int lib_touch(int *a, int n)
{
	lib_fill(a, n);
	return n;
}

int lib_sum(const int *a, int n)
{
	int t = 0;

	for (int i = 0; i < n; i++)
		t += a[i];
	return t;
}
