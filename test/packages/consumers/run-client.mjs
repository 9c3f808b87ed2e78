// The installed client through import (call.cjs says what it does).
import * as client from '@trustgate/client';
import call from './call.cjs';

await call(client);
