// Package users is a user message, encoded as JSON.
package users

import "encoding/json"

// User is the message.
type User struct {
	Name string `json:"name"`
}

// Marshal encodes u.
func Marshal(u User) ([]byte, error) { return json.Marshal(u) }
