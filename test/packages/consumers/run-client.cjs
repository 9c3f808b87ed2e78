// The installed client through require() (call.cjs says what it does).
require('./call.cjs')(require('@trustgate/client')).catch((err) => {
  console.error(err);
  process.exit(1);
});
