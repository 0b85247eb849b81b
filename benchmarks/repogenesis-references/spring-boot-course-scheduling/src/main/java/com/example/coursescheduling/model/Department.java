package com.example.coursescheduling.model;

public class Department {
    public Long id;
    public String name;
}
