/* libsyma.so and libsymb.so: one plugin, built twice with -DN=70 and -DN=90
 * (see symprog.c): plug writes N shorts. */
void plug(short *s)
{
	for (int i = 0; i < N; i++)
		s[i] = (short)i;
}
