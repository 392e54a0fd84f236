// Ink loads react-devtools-core only when DEV=true; the bundle ships this empty stand-in instead.
export default { initialize() {}, connectToDevTools() {} };
