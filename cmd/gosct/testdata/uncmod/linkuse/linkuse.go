// Package linkuse tests a dependency's linknamed clock.
package linkuse
