package patterns

import "sync"

type syncMutex = sync.Mutex
