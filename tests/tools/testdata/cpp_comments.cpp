// C++ sources (the emulator's broken kernels) use // comments for the same annotations.
int main() {
  int x = 1;  // expected-error {{use of a freed tensor}}
  // expected-warning@+1 {{queue depth 3 is unusual}}
  return x;
}
