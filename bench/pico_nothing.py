print("nothing to run: the files are on flash")
