//#Terminating
// Nested loops: one strongly connected component with two loop heads. n - i decreases when the
// outer loop iterates and never increases in the inner one; once the letter that increments i is
// removed, the inner loop alone is ranked by i - j (a lexicographic ranking function).
procedure main(n: int)
{
    var i, j: int;
    i := 0;
    while (i < n) {
        j := 0;
        while (j < i) {
            j := j + 1;
        }
        i := i + 1;
    }
}
