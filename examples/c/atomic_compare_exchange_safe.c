//#Safe
// Compare-and-swap builtins: on success `*ptr` takes the new value, on failure the generic form
// stores the current value in `*expected`; the `__sync` forms return the old value or the outcome.
int x = 5;
int main() { int e = 5; int ok = __atomic_compare_exchange_n(&x, &e, 7, 0, 5, 5);
 //@ assert ok == 1 && x == 7 && e == 5;
 e = 3; ok = __atomic_compare_exchange_n(&x, &e, 9, 0, 5, 5);
 //@ assert ok == 0 && x == 7 && e == 7;
 int v = __sync_val_compare_and_swap(&x, 7, 1);
 //@ assert v == 7 && x == 1;
 ok = __sync_bool_compare_and_swap(&x, 2, 3);
 //@ assert ok == 0 && x == 1;
 return 0; }
