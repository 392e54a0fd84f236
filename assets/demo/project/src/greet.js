/** Greets someone by name. */
export function greet(name) {
  return `Hello, ${name}!`;
}
