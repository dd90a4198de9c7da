/* a.c -- half of a circle for circles.sh to find: a calls b, b calls a. */
int circle_a(int n);
int circle_b(int n);

int circle_a(int n)
{
    return n > 0 ? circle_b(n - 1) : 0;
}
