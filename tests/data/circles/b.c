/* b.c -- the other half of the circle of a.c. */
int circle_a(int n);
int circle_b(int n);

int circle_b(int n)
{
    return n > 0 ? circle_a(n - 1) : 1;
}
