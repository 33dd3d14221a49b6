// Package janitor is a case of the leak rule: a janitor selecting on a ticker and a stop channel nobody closes
package janitor
