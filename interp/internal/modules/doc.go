// Package modules makes Go modules importable in a running notebook session.
package modules
