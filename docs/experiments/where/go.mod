module example.com/where

go 1.26
